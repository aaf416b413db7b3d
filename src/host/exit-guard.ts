/*
 * A hook that calls `process.exit(0)` — ported Claude-style scripts do it innocently — must not end
 * a CLI run with its own exit code: `emit tool_call` would exit 0 with no answer although a later
 * guard blocks. While hooks are loaded and dispatched, exiting throws instead: inside a `tool_call`
 * handler that is an error, so the call is blocked; in a factory it is a load error; in `serve` the
 * request fails and the server goes on. The CLI itself exits through {@link exitProcess}.
 */

import { writeSync } from "node:fs";
import { errorMessage } from "../hooks/_describe.ts";

const realExit = process.exit.bind(process);

/** Thrown by `process.exit` while {@link guardProcessExit} is on. */
export class HookExitError extends Error {
	override readonly name = "HookExitError";
	readonly code = "HOOK_EXIT";
	constructor(readonly exitCode: unknown) {
		super(
			`a hook called process.exit(${exitCode === undefined ? "" : String(exitCode)}); hooks must not end the process (return a result or throw instead)`,
		);
	}
}

let guarded = false;
const stray: string[] = [];

/**
 * Errors no handler was there to catch (a hook's timer that throws or calls `process.exit`, a promise it
 * never awaited that rejects) would end the process with exit 1 and no answer, which an agent reads as
 * "allow". Starts watching for them; the returned function gives why the call decided since then
 * must be blocked (fail closed), or `undefined` when none arrived. `emit`, `serve`, bridges and `run` share it.
 */
export function watchStrayErrors(): () => string | undefined {
	const before = stray.length;
	return () => {
		const since = stray.slice(before);
		return since.length === 0 ? undefined : `a hook raised an uncaught error during the call (fail closed): ${since.join("; ")}`;
	};
}

/**
 * From now on `process.exit` throws a {@link HookExitError}, and uncaught
 * errors are recorded (see {@link watchStrayErrors}) and printed on stderr instead of ending the process. Idempotent.
 */
export function guardProcessExit(): void {
	if (guarded) return;
	guarded = true;
	const record = (error: unknown) => {
		const message = errorMessage(error);
		stray.push(message);
		writeSync(2, `xcsh-hooks: uncaught error in a hook: ${message}\n`);
	};
	process.on("uncaughtException", record);
	process.on("unhandledRejection", record);
	const refuse = (code?: unknown): never => {
		throw new HookExitError(code);
	};
	// `process.reallyExit` stays: the real `process.exit` ends the process through it.
	process.exit = refuse as typeof process.exit;
}

/** Ends the process with `code`, whether or not the guard is on. */
export function exitProcess(code: number): never {
	return realExit(code);
}
