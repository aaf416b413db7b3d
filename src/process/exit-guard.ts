import { XcshError } from "../errors.ts";
/*
 * A hook that calls `process.exit(0)` — ported Claude-style scripts do it innocently — must not end
 * a CLI run with its own exit code: `emit tool_call` would exit 0 with no answer although a later
 * guard blocks. While hooks are loaded and dispatched, exiting throws instead: inside a `tool_call`
 * handler that is an error, so the call is blocked; in a factory it is a load error; in `serve` the
 * request fails and the server goes on. The CLI itself exits through {@link exitProcess}.
 */

import { writeSync } from "node:fs";
import { errorMessage } from "../hooks/_describe.ts";
import { acceptIntrinsic } from "../intrinsics.ts";

const realExit = process.exit.bind(process);
/** Bun's `process.exit` ends the process through `process.reallyExit`, looked up when it runs. */
const realReallyExit = (process as unknown as { reallyExit: (code?: number) => never }).reallyExit;

/** Thrown by `process.exit` while {@link guardProcessExit} is on: an `XcshError` `HOOK_EXIT` (`detail`: the code asked for). */
export function hookExitError(exitCode: unknown): XcshError {
	const code = exitCode === undefined ? "" : String(exitCode);
	return new XcshError(
		"HOOK_EXIT",
		`a hook called process.exit(${code}); hooks must not end the process (return a result or throw instead)`,
		{ detail: code },
	);
}

let guarded = false;
const stray: string[] = [];

// The real schedulers: the waits below must not count as a hook's deferred work.
const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;
/** Zero-delay work (`setTimeout(fn)`, `setTimeout(fn, 0)`, `setImmediate(fn)`) scheduled since the guard went on. */
let deferred = 0;

const nextTurn = () => new Promise<void>((resolve) => realSetImmediate(resolve));

/**
 * Errors no handler was there to catch (a hook's timer that throws or calls `process.exit`, a promise it
 * never awaited that rejects) would end the process with exit 1 and no answer, which an agent reads as
 * "allow". Starts watching for them; the returned function resolves why the call decided since then
 * must be blocked (fail closed), or `undefined` when none arrived. `emit`, `serve`, bridges and `run` share it.
 *
 * What counts as "during the call": everything the handlers did before they settled, and the work they
 * deferred with no delay (`setTimeout(fn)`, `setTimeout(fn, 0)`, `setImmediate(fn)`). Bun reports an
 * unhandled rejection only on the event loop's next turn, so the check first waits for that turn (a few
 * microseconds), and, only when zero-delay work was scheduled since the watch began, for that work to
 * run (about 1 ms): a `Promise.reject(…)` nothing awaited, or one in such a timer, blocks the call as a
 * thrown error does. A timer with a real delay that is still pending when every handler settled runs
 * after the call was decided; a guard that depends on it must await it.
 */
export function watchStrayErrors(): () => Promise<string | undefined> {
	const before = stray.length;
	const deferredBefore = deferred;
	return async () => {
		if (deferred !== deferredBefore) {
			// Timers of the same delay fire in the order they were set: this one after the hooks' own.
			await new Promise<void>((resolve) => realSetTimeout(resolve, 0));
			await nextTurn(); // after a hook's setImmediate in the same turn
		}
		await nextTurn();
		const since = stray.slice(before);
		return since.length === 0 ? undefined : `a hook raised an uncaught error during the call (fail closed): ${since.join("; ")}`;
	};
}

/** Makes the global `setTimeout` and `setImmediate` count the zero-delay work they schedule (see {@link watchStrayErrors}). */
function countDeferredWork(): void {
	const counting = <F extends (...args: never[]) => unknown>(real: F, isDeferred: (args: unknown[]) => boolean): F => {
		const wrapper = function (this: unknown, ...args: unknown[]) {
			if (isDeferred(args)) deferred++;
			return Reflect.apply(real, this, args);
		};
		// `length`, `name` and `util.promisify.custom` stay the real function's.
		Object.defineProperties(wrapper, Object.getOwnPropertyDescriptors(real));
		return wrapper as unknown as F;
	};
	globalThis.setTimeout = counting(realSetTimeout, (args) => !(Number(args[1]) > 1));
	globalThis.setImmediate = counting(realSetImmediate, () => true);
	acceptIntrinsic(globalThis, "setTimeout");
	acceptIntrinsic(globalThis, "setImmediate");
}

/**
 * From now on `process.exit` throws a `HOOK_EXIT` error, and uncaught
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
	countDeferredWork();
	const refuse = (code?: unknown): never => {
		throw hookExitError(code);
	};
	process.exit = refuse as typeof process.exit;
	// The lower door too (`process.reallyExit(0)` ended a call with exit 0 and no answer: "allow");
	// put back only by {@link exitProcess}, just before the real `process.exit` goes through it.
	(process as unknown as { reallyExit: unknown }).reallyExit = refuse;
	// These are the ones to keep: a hook that puts the real exit back is a change of the built-ins.
	acceptIntrinsic(process, "exit");
	acceptIntrinsic(process, "reallyExit");
}

/** Ends the process with `code`, whether or not the guard is on. */
export function exitProcess(code: number): never {
	(process as unknown as { reallyExit: unknown }).reallyExit = realReallyExit;
	return realExit(code);
}
