import { dirname } from "pathe";
import { importedHookFiles } from "../hooks/_hook-files.ts";
import { hookExitError } from "./exit-guard.ts";
import { acceptIntrinsic } from "../intrinsics.ts";

/*
 * Inside an agent that loaded our plugin (OpenCode, Kilo Code) `process.exit` belongs to the agent:
 * replacing it the way the CLI does (see exit-guard.ts) would stop the agent from ever ending. But a
 * hook that calls it — ported Claude-style scripts do — would end the agent mid-session. So the exit
 * (and `process.reallyExit`, the lower door Bun's exit goes through, which ended the agent with exit 0
 * and no answer) is wrapped once, and a call throws a `HOOK_EXIT` error instead when it comes from a hook: when the call
 * stack holds a frame of a hook module (any the loader imported, recorded before the import), or of our own code (the runner, the loader, the library
 * hooks import). Our code never calls `process.exit` itself, so such a frame means a hook (or
 * something it called) is running; the second rule catches what the first cannot see: a hook written
 * as `() => process.exit(0)` is a proper tail call in JavaScriptCore and leaves no frame of its own.
 * Any other call — the agent's own exit — goes to the exit that was there before.
 *
 * What that gives: in a handler (also after an await: Bun keeps the awaiting frames) the throw is the
 * handler's error, so the tool call is blocked with a reason naming the hook; in a factory or at a
 * module's top level it is a load error, which blocks every tool call. In a timer the hook scheduled,
 * the throw happens in the timer with the hook's frame on the stack — unless the timer's callback
 * tail-calls `process.exit` (`setTimeout(() => process.exit(1))`), which leaves no frame of ours or the
 * hook's, so that one exit cannot be told from the agent's and goes through. A refused exit in a timer
 * is an uncaught error in the agent, which OpenCode and Kilo log and carry on from.
 */

/** The folder of our own code: `src/` run from source, the runtime folder for the bundle. */
function ownRoot(): string {
	const frame = new Error().stack?.split("\n")[1] ?? "";
	const file = framePath(frame);
	return file ? `${dirname(dirname(file))}/` : "\0";
}

/** The file a stack line names (`at f (/a/b.ts:1:2)` or `at /a/b.ts:1:2`), without a query; undefined for native frames. */
function framePath(line: string): string | undefined {
	const match = /\(?((?:file:\/\/)?\/[^():]*?)(?:\?[^():]*)?:\d+:\d+\)?\s*$/.exec(line);
	return match?.[1]?.replace(/^file:\/\//, "");
}

let wrapped = false;
let root = "";

/** Whether the current call stack (from `below` down) holds a hook's frame or one of our own code. */
function fromHook(below: (...args: never) => unknown): boolean {
	const holder: { stack?: string } = {};
	const limit = Error.stackTraceLimit;
	Error.stackTraceLimit = 200;
	try {
		Error.captureStackTrace(holder, below);
	} finally {
		Error.stackTraceLimit = limit;
	}
	for (const line of (holder.stack ?? "").split("\n")) {
		const file = framePath(line);
		if (file && (file.startsWith(root) || importedHookFiles.has(file))) return true;
	}
	return false;
}

/** The process's exits, as the wrapper below sees them. */
type Exits = { exit: (code?: unknown) => never; reallyExit?: (code?: unknown) => never };

/**
 * Wraps `process.exit` and the lower door Bun's `exit` goes through, `process.reallyExit`, once, so a
 * hook's call of either throws a `HOOK_EXIT` error and the agent's own exits (see above). A
 * `reallyExit` reached through an exit the wrapper already let through (the agent's) is not asked
 * again: that call's stack holds our wrapper's frame. Idempotent.
 */
export function guardHookExitInAgent(): void {
	if (wrapped) return;
	wrapped = true;
	root = ownRoot();
	const exits = process as unknown as Exits;
	let letThrough = false;
	const wrap = (name: keyof Exits, real: (code?: unknown) => never) => {
		const wrapper = function (this: unknown, code?: unknown) {
			if (!letThrough && fromHook(wrapper)) throw hookExitError(code);
			letThrough = true;
			try {
				return Reflect.apply(real, this, [code]);
			} finally {
				letThrough = false;
			}
		};
		Object.defineProperties(wrapper, { name: { value: name }, length: { value: real.length } });
		exits[name] = wrapper as never;
		// The wrapper is the exit to keep: a hook that puts the agent's back is a change of the built-ins.
		acceptIntrinsic(process, name);
	};
	wrap("exit", exits.exit);
	if (typeof exits.reallyExit === "function") wrap("reallyExit", exits.reallyExit);
}
