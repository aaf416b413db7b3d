import { isTerminal } from "../process/tty.ts";
import { writeErr } from "./_shared.ts";

/*
 * What a person reads on stderr besides the answer. At a terminal a warning goes through consola
 * (its WARN badge and colour), loaded only when there is one to print: importing consola costs about
 * 22 ms, which no command pays for nothing. In a pipe, or with NO_COLOR, it is one plain
 * `warning: …` line, the form scripts and the tests read. Errors stay one plain line everywhere
 * (`xcsh-hooks <command>: …`, src/cli/main.ts): consola's reporter under Bun pads every message to the
 * terminal's width with a clock time and puts blank lines around an error, where a user and the
 * documented exit codes rely on one line. Prompts: src/ui/ (consola's text prompt does not work under
 * Bun; src/ui/_line-prompt.ts says why).
 */

/** Prints a warning a person reads: consola's `warn` at a terminal, `warning: <text>` otherwise. */
export async function warn(text: string): Promise<void> {
	if (process.env.NO_COLOR || !isTerminal(2)) {
		await writeErr(`warning: ${text}`);
		return;
	}
	const { consola } = await import("consola");
	consola.warn(text);
}
