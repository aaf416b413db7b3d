import { XcshError } from "../errors.ts";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isAbsolute, resolve } from "pathe";

/*
 * A Worker runs a module in a thread of its own, whose module loader the approved-bytes plugins
 * (./_approved.ts) do not reach: it reads its entry, and what that imports, from the disk. So in a
 * process that runs approved project hooks, every Worker (the global one and node:worker_threads')
 * is started only once its entry passes `refusal`: an approved file whose bytes, and those of the
 * rest of its approval, are still the approved ones, with their imports still resolving inside it — or
 * a file that is no project's (a package, the user's or the system's hook folders), or code the hook
 * built itself (`blob:`, `data:`).
 * Anything else throws from the constructor, so the hook's handler fails, closed, with the reason.
 * What the Worker's module imports later is not served from approved bytes: it was compared here,
 * an instant before the thread reads it. Loading node:worker_threads costs a process ≈1.7 ms, so its
 * class is guarded only where an approved file names the module (a hook reaches it no other way but
 * through a package, which then starts the paths the hook hands it) and in `serve` up front. Not
 * reached: a Worker a Worker starts (its thread has the runtime's own class), and node:worker_threads
 * imported as a module before the guard (its namespace keeps the class it had; Bun shows plugins no
 * builtin): in `emit` and `bridge` the guard comes before any hook, `serve` puts it first
 * (guardWorkersEarly), but an agent that runs us in-process may have imported that module itself.
 */

let guardedGlobal = false;
let guardedThreads = false;

/** The file a Worker's specifier names, as Bun resolves it (a relative path from the working directory); `undefined` for code. */
function workerEntry(specifier: unknown): string | undefined {
	const text = specifier instanceof URL ? specifier.href : String(specifier);
	if (/^(?:blob|data):/i.test(text)) return undefined;
	let path: string;
	if (text.startsWith("file:")) path = fileURLToPath(text);
	else if (isAbsolute(text)) path = text;
	else if (text.startsWith("./") || text.startsWith("../")) path = resolve(process.cwd(), text);
	else {
		try {
			path = Bun.resolveSync(text, process.cwd());
		} catch {
			path = resolve(process.cwd(), text);
		}
	}
	try {
		return realpathSync(path);
	} catch {
		return path; // nothing there yet: checked as written (a file that no approval covers is refused)
	}
}

/** A constructor that asks `refusal` about its entry first; same class for `instanceof`. */
function guardedClass<T extends abstract new (...args: never[]) => unknown>(original: T, refusal: (file: string) => string | undefined): T {
	return new Proxy(original, {
		construct(target, args, newTarget) {
			const options = (typeof args[1] === "object" && args[1] !== null ? args[1] : {}) as { eval?: unknown; preload?: unknown };
			// node:worker_threads' `eval: true` takes code, not a file; Bun's `preload` files run in the thread first.
			const entries = [...(options.eval === true ? [] : [args[0]]), ...[options.preload ?? []].flat()];
			for (const entry of entries) {
				const file = workerEntry(entry);
				const problem = file === undefined ? undefined : refusal(file);
				if (problem !== undefined) throw new XcshError("IMPORT_REFUSED", `new Worker(${file}) refused (fail closed): ${problem}`);
			}
			return Reflect.construct(target, args, newTarget);
		},
	});
}

/**
 * Puts `refusal` before every global Worker this process starts from now on, and with `threads` before
 * node:worker_threads' too (each once; see the module note).
 */
export function guardWorkers(refusal: (file: string) => string | undefined, threads: boolean): void {
	if (!guardedGlobal && typeof globalThis.Worker === "function") globalThis.Worker = guardedClass(globalThis.Worker, refusal);
	guardedGlobal = true;
	if (!threads || guardedThreads) return;
	guardedThreads = true;
	const workerThreads = require("node:worker_threads") as { Worker: typeof import("node:worker_threads").Worker };
	workerThreads.Worker = guardedClass(workerThreads.Worker, refusal);
}
