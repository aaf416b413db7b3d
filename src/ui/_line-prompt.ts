// consola 3.4's text prompt does not work under Bun: its line tracking rides on a tty.WriteStream
// whose writes Bun never routes back, so whatever the user types comes back as `undefined` (confirm
// and select are key-driven and work). Text questions therefore use node:readline, which Bun supports.

/** What {@link promptLine} reads from consola-style text prompt options. */
export interface LinePromptOptions {
	/** Shown after the question as a hint; not inserted. */
	placeholder?: string;
	/** Text already on the line when the prompt opens, editable. */
	initial?: string;
	/** Answer given for an empty line. */
	default?: string;
}

/** consola's cancel marker, so callers treat both prompt kinds alike. */
const CANCEL = Symbol.for("cancel");
/** Answered for Ctrl+C, so a host may end the command on it (the same symbol as the key prompts'). */
const INTERRUPTED = Symbol.for("xcsh-hooks.interrupted");

/**
 * Ask for one line on stdout/stdin. Resolves the line, or `Symbol.for("cancel")` on Ctrl+C or
 * end of input (Ctrl+D).
 */
export async function promptLine(message: string, options: LinePromptOptions = {}): Promise<string | symbol> {
	const { createInterface } = await import("node:readline");
	// A readline on input that has already ended would never answer nor close.
	if (process.stdin.readableEnded || process.stdin.destroyed) return CANCEL;
	const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
	const hint = options.placeholder ? ` (${options.placeholder})` : "";
	return new Promise((resolve) => {
		let settled = false;
		const finish = (answer: string | symbol) => {
			if (settled) return;
			settled = true;
			rl.close();
			resolve(answer);
		};
		rl.on("SIGINT", () => {
			process.stdout.write("\n");
			finish(INTERRUPTED);
		});
		rl.on("close", () => finish(CANCEL));
		rl.question(`${message}${hint}\n› `, (line) => finish(line === "" ? (options.default ?? line) : line));
		if (options.initial) rl.write(options.initial);
	});
}
