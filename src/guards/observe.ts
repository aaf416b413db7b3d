import type { ShellExplanation } from "./types.ts";

/*
 * `xcsh-hooks guard explain` judges a command with the guard the project's hooks run: it loads them
 * as `emit` does (trust applies), dispatches the call, and hears from every guard that decided while
 * they ran. The listener lives on a process-wide symbol, so a hook whose `xcsh-hooks/guards` is another
 * copy of this module is heard too. Nothing is recorded while nobody listens.
 */

type Listener = (explanation: ShellExplanation) => void;

const KEY = Symbol.for("xcsh-hooks.guards.observer");
const slot = globalThis as { [KEY]?: Listener | undefined };

/** Hears every decision any shell guard in this process makes until the returned function is called. */
export function observeShellGuards(listener: Listener): () => void {
	const previous = slot[KEY];
	slot[KEY] = listener;
	return () => {
		slot[KEY] = previous;
	};
}

/** Whether a listener waits for explanations (a guard then explains each decision it makes). */
export const observed = (): boolean => slot[KEY] !== undefined;

/** Hands an explanation to the listener; a listener that throws never changes a decision. */
export function report(explanation: ShellExplanation): void {
	try {
		slot[KEY]?.(explanation);
	} catch {}
}
