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

/** Rows `text` takes on a terminal `cols` wide (each line wraps on its own; an empty line is one row). */
function rowsOf(text: string, cols: number): number {
	return text.split("\n").reduce((rows, line) => rows + Math.max(1, Math.ceil(Bun.stringWidth(line) / cols)), 0);
}

const paint = (code: number, text: string) => (process.env.NO_COLOR ? text : `\x1b[${code}m${text}\x1b[39m`);

/**
 * Replaces the question and the typed line with one line, `✔ title › answer` or `✖ title`, as the
 * select and confirm prompts leave theirs. `typed` is what is on the answer line; `below` whether
 * the cursor already moved past it (Enter, Ctrl+C) or still sits at its end (Ctrl+D).
 */
function collapse(question: string, typed: string, below: boolean, final: string): void {
	const out = process.stdout;
	if (!out.isTTY) return;
	const cols = Math.max(out.columns ?? 80, 1);
	const up = rowsOf(question, cols) + (below ? rowsOf(typed, cols) : rowsOf(typed, cols) - 1);
	out.write(`\r\x1b[${up}A\x1b[J${final}\n`);
}

/**
 * Ask for one line on stdout/stdin. Resolves the line, or `Symbol.for("cancel")` on Ctrl+C or
 * end of input (Ctrl+D). At a terminal it leaves one line, `✔ message › answer` (or `✖ message`).
 */
export async function promptLine(message: string, options: LinePromptOptions = {}): Promise<string | symbol> {
	const { createInterface } = await import("node:readline");
	// A readline on input that has already ended would never answer nor close.
	if (process.stdin.readableEnded || process.stdin.destroyed) return CANCEL;
	const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
	const hint = options.placeholder ? ` (${options.placeholder})` : "";
	const question = `${message}${hint}`;
	const title = message.split("\n", 1)[0] ?? message;
	return new Promise((resolve) => {
		let settled = false;
		const finish = (answer: string | symbol, typed: string, below: boolean) => {
			if (settled) return;
			settled = true;
			rl.close();
			collapse(
				question,
				`› ${typed}`,
				below,
				typeof answer === "string" ? `${paint(32, "✔")} ${title} › ${answer}` : `${paint(31, "✖")} ${title}`,
			);
			resolve(answer);
		};
		rl.on("SIGINT", () => {
			const typed = rl.line;
			process.stdout.write("\n");
			finish(INTERRUPTED, typed, true);
		});
		rl.on("close", () => finish(CANCEL, rl.line, false));
		rl.question(`${question}\n› `, (line) => finish(line === "" ? (options.default ?? line) : line, line, true));
		if (options.initial) rl.write(options.initial);
	});
}
