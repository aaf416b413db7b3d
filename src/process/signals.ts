/*
 * A signal that ends the process ends it with no answer, which Codex and Gemini read as "allow", and
 * a hook can send one to its own process (`process.kill(process.pid, "SIGUSR1")`). So every command
 * that owes an answer listens to every signal that would end it and a listener can catch:
 *
 * - the ones an agent or a user sends to stop a command (SIGHUP, SIGINT, SIGQUIT, SIGTERM);
 * - the ones whose default action ends a process and that nothing in a hook run needs (SIGUSR1,
 *   SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGTRAP, SIGABRT, SIGSYS, SIGIO).
 *
 * Left out on purpose: SIGKILL and SIGSTOP (no process can catch them); SIGPIPE and SIGXFSZ (Bun
 * ignores them: they end nothing, a failed write is an error instead); SIGSEGV, SIGBUS, SIGFPE and
 * SIGILL (a listener would turn a real fault into a process that re-runs the faulting instruction
 * forever, a hang in place of a crash); signals Bun cannot name (SIGSTKFLT, SIGPWR), which no hook
 * can send with `process.kill` either.
 */

/** The signals of the module note, in the order listeners are added. */
export const ENDING_SIGNALS = [
	"SIGTERM",
	"SIGINT",
	"SIGHUP",
	"SIGQUIT",
	"SIGUSR1",
	"SIGUSR2",
	"SIGALRM",
	"SIGVTALRM",
	"SIGPROF",
	"SIGXCPU",
	"SIGTRAP",
	"SIGABRT",
	"SIGSYS",
	"SIGIO",
] as const satisfies readonly NodeJS.Signals[];

/** One of {@link ENDING_SIGNALS}. */
export type EndingSignal = (typeof ENDING_SIGNALS)[number];

/**
 * Calls `listener` on every one of {@link ENDING_SIGNALS} that arrives, instead of letting it end the
 * process; returns a function that removes the listeners. The listeners stay until then, so a second
 * signal while the first one's answer is written is the listener's to handle (it cannot cut the answer
 * short). A signal the platform does not have is skipped.
 */
export function onEndingSignal(listener: (signal: EndingSignal) => void): () => void {
	const added: Array<[EndingSignal, () => void]> = [];
	for (const signal of ENDING_SIGNALS) {
		const handler = () => listener(signal);
		try {
			process.on(signal, handler);
			added.push([signal, handler]);
		} catch {
			// not a signal of this platform: nothing can send it
		}
	}
	return () => {
		for (const [signal, handler] of added) process.off(signal, handler);
	};
}
