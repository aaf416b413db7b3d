// Start-up matters (docs/contract.md#performance-budgets): this module must not import consola (≈22 ms) nor touch
// process.stdout/process.stderr (≈10 ms) when it is imported — only when a method needs them.
import type { PromptOptions } from "consola";
import { promptConfirm, promptSelect } from "./_key-prompt.ts";
import { promptLine } from "./_line-prompt.ts";
import { createStatusLine, sanitizeStatusText } from "./status-line.ts";
import { guardStatusLine } from "./stdout-guard.ts";

const INTERRUPTED = Symbol.for("xcsh-hooks.interrupted");
import { createAnsiTheme, createPlainTheme, type Theme } from "./theme.ts";
import type { HookUIContext, NotifyType } from "./types.ts";

/**
 * Asks one question, with consola's `prompt` signature. The terminal UI always passes
 * `cancel: "symbol"`; a symbol, `undefined` or `null` answer counts as cancelled.
 */
export type PromptFn = (message: string, options: PromptOptions) => Promise<unknown>;

/** Options of {@link createTerminalUIContext}. */
export interface TerminalUIContextOptions {
	/**
	 * Called when Ctrl+C answers a prompt, once the terminal is restored; the prompt still resolves as
	 * cancelled. A CLI ends the whole command there (exit 130). Default: nothing beyond the cancel.
	 */
	onInterrupt?: () => void;
	/** Receives notifications and status-line updates. Default: `process.stderr.write`. */
	write?: (s: string) => void;
	/** Current terminal width in columns, for the status line. Default: `process.stderr.columns ?? 80`. */
	width?: () => number;
	/**
	 * Asks the questions. Default: consola's `prompt` (imported on first use) for confirm and select,
	 * node:readline for text (consola's text prompt does not work under Bun).
	 */
	prompt?: PromptFn;
	/** Styling handed to hooks. Default: ANSI colours, or plain when `NO_COLOR` is set (no-color.org). */
	theme?: Theme;
}

/** Go to column 0 and erase the line: how the status line is redrawn in place. */
export const CLEAR_LINE = "\r\x1b[2K";

// The editor is a one-line prompt: line breaks are shown as this glyph and turned back on submit,
// so an untouched prefill comes back exactly (modulo "\r\n" → "\n") and never submits itself.
const LINE_BREAK = "↵";

// Text questions go to node:readline (see _line-prompt.ts); select and confirm to our key-driven
// prompts (see _key-prompt.ts), which redraw in place; anything else to consola.
const defaultPrompt: PromptFn = async (message, options) => {
	if (options.type === undefined || options.type === "text") return promptLine(message, options);
	if (options.type === "select" && options.options.every((o) => typeof o === "string"))
		return promptSelect(message, options.options as string[]);
	if (options.type === "confirm") return promptConfirm(message, options.initial === true);
	const { consola } = await import("consola");
	return consola.prompt(message, options);
};

const isCancel = (answer: unknown) => answer === undefined || answer === null || typeof answer === "symbol";

/**
 * The UI for the CLI when stdin and stdout are a TTY. Questions are asked on stdout one at a time
 * (key-driven prompts for confirm/select, redrawn in place; a readline prompt for input/editor; each
 * leaves one line once answered or cancelled); a cancelled prompt (Ctrl+C;
 * Esc in confirm/select, Ctrl+D in text) answers `undefined`, or `false` for `confirm`, which defaults
 * to "no". `editor` is a one-line prompt where line breaks show as "↵". `notify` writes one line to
 * stderr; `setStatus` redraws the status line in place on stderr. The status line stays below other
 * output: it is lifted while a notification is written and while a prompt is open; notifications and
 * status changes made during a prompt appear when it closes.
 * `custom` runs the factory and resolves with the first value given to `done`; a factory that throws
 * or rejects rejects the call. Editor text is kept in memory.
 */
export function createTerminalUIContext(options: TerminalUIContextOptions = {}): HookUIContext {
	const write = options.write ?? ((s: string) => void process.stderr.write(s));
	const width = options.width ?? (() => process.stderr.columns ?? 80);
	const prompt = options.prompt ?? defaultPrompt;
	const theme = options.theme ?? (process.env.NO_COLOR ? createPlainTheme() : createAnsiTheme());
	const status = createStatusLine();
	let shown = ""; // status line currently on screen
	let editorText = "";
	let prompting = false;
	let held: string[] = []; // notifications that arrived while a prompt owned the screen
	let queue: Promise<unknown> = Promise.resolve();

	const drawStatus = () => {
		if (prompting) return; // drawn when the prompt closes
		const line = status.render(width());
		if (line !== "" || shown !== "") write(CLEAR_LINE + line);
		shown = line;
	};
	const liftStatus = () => {
		if (shown !== "") write(CLEAR_LINE);
		shown = "";
	};
	const runPrompt = async (message: string, opts: PromptOptions): Promise<unknown> => {
		liftStatus();
		prompting = true;
		try {
			const answer = await prompt(message, { ...opts, cancel: "symbol" });
			if (answer === INTERRUPTED) options.onInterrupt?.();
			return answer;
		} finally {
			prompting = false;
			for (const line of held) write(line);
			held = [];
			drawStatus();
		}
	};
	// A result printed on stdout (the same terminal) must not run into the status line.
	guardStatusLine({ lift: liftStatus, redraw: drawStatus });
	// Two hooks prompting at once would interleave on screen; answer them in turn.
	const ask = (message: string, opts: PromptOptions): Promise<unknown> => {
		const answer = queue.then(() => runPrompt(message, opts));
		queue = answer.catch(() => {});
		return answer;
	};

	return {
		async select(title, choices) {
			if (choices.length === 0) return undefined;
			const answer = await ask(title, { type: "select", options: choices });
			return typeof answer === "string" && choices.includes(answer) ? answer : undefined;
		},
		async confirm(title, message) {
			const question = message ? `${title}\n${message}` : title;
			const answer = await ask(question, { type: "confirm", initial: false });
			return answer === true;
		},
		async input(title, placeholder) {
			const answer = await ask(title, { type: "text", ...(placeholder === undefined ? {} : { placeholder }), default: "" });
			return isCancel(answer) ? undefined : String(answer);
		},
		async editor(title, prefill = "") {
			const initial = prefill.replace(/\r?\n/g, LINE_BREAK);
			const answer = await ask(title, { type: "text", initial, default: "" });
			return isCancel(answer) ? undefined : String(answer).replaceAll(LINE_BREAK, "\n");
		},
		notify(message, type: NotifyType = "info") {
			const kind: NotifyType = type === "warning" || type === "error" ? type : "info";
			const symbol = theme.fg(kind, theme.symbols[kind]);
			const line = `${symbol} ${sanitizeStatusText(message)}\n`;
			if (prompting) return void held.push(line);
			liftStatus();
			write(line);
			drawStatus();
		},
		setStatus(key, text) {
			status.set(key, text);
			drawStatus();
		},
		custom<T>(factory: (theme: Theme, done: (result: T) => void) => unknown) {
			return new Promise<T | undefined>((resolve, reject) => {
				try {
					Promise.resolve(factory(theme, resolve)).catch(reject);
				} catch (error) {
					reject(error);
				}
			});
		},
		setEditorText(text) {
			editorText = text;
		},
		getEditorText: () => editorText,
		get theme() {
			return theme;
		},
	};
}
