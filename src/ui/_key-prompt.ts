// Select and confirm prompts driven by single keys. consola's prompts echo the keys they read under
// Bun (stdin is never put in raw mode), so the cursor drifts and every redraw lands lower on screen,
// and an answered prompt leaves its title twice. These own the terminal while open: raw mode, the
// cursor hidden, one block redrawn in place, and one line left behind once answered.
import { truncateToWidth } from "./status-line.ts";

/** consola's cancel marker, so callers treat every prompt kind alike. */
const CANCEL = Symbol.for("cancel");
/** Answered for Ctrl+C (Esc and end of input are {@link CANCEL}): a host may end the command on it. */
export const INTERRUPTED = Symbol.for("xcsh-hooks.interrupted");

const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const ERASE_DOWN = "\x1b[J";

/** The keys the prompts act on, from what a terminal sends. */
type Key = "up" | "down" | "left" | "right" | "enter" | "cancel" | "interrupt" | "escape" | "y" | "n" | "other";

function keysOf(data: string): Key[] {
	const keys: Key[] = [];
	for (let i = 0; i < data.length; i++) {
		const rest = data.slice(i);
		const arrow = /^\x1b[[O]([ABCD])/.exec(rest);
		if (arrow) {
			keys.push(({ A: "up", B: "down", C: "right", D: "left" } as const)[arrow[1] as "A" | "B" | "C" | "D"]);
			i += arrow[0].length - 1;
			continue;
		}
		const ch = data[i] as string;
		if (ch === "\x1b") {
			// A lone Esc, or an escape sequence we do not use (skip it whole).
			const other = /^\x1b\[[0-9;]*[~A-Za-z]/.exec(rest);
			if (other) i += other[0].length - 1;
			else keys.push("escape");
			continue;
		}
		if (ch === "\r" || ch === "\n") keys.push("enter");
		else if (ch === "\x03") keys.push("interrupt");
		else if (ch === "\x04") keys.push("cancel");
		else if (ch === "k" || ch === "\x10") keys.push("up");
		else if (ch === "j" || ch === "\x0e" || ch === "\t") keys.push("down");
		else if (ch === "y" || ch === "Y") keys.push("y");
		else if (ch === "n" || ch === "N") keys.push("n");
		else keys.push("other");
	}
	return keys;
}

/** Options of the key-driven prompts. */
export interface KeyPromptIO {
	input?: NodeJS.ReadStream;
	output?: NodeJS.WriteStream;
	/** Colour the pointer and the answer (default: unless `NO_COLOR`). */
	color?: boolean;
}

interface Screen {
	/** Draws `lines` where the previous block was. */
	draw(lines: string[]): void;
	/** Replaces the block with one final line and gives the terminal back. */
	finish(line: string): void;
}

function screenOn(output: NodeJS.WriteStream): Screen {
	let drawn = 0;
	const width = () => Math.max((output.columns ?? 80) - 1, 10);
	// Each line is cut to the width so none wraps: the block is then exactly `drawn` rows high.
	const fit = (lines: string[]) => lines.flatMap((l) => l.split("\n")).map((l) => truncateToWidth(l, width()));
	const rewind = () => (drawn > 0 ? `\r\x1b[${drawn}A${ERASE_DOWN}` : `\r${ERASE_DOWN}`);
	output.write(HIDE_CURSOR);
	return {
		draw(lines) {
			const rows = fit(lines);
			output.write(`${rewind()}${rows.join("\n")}\n`);
			drawn = rows.length;
		},
		finish(line) {
			output.write(`${rewind()}${fit([line]).join("\n")}\n${SHOW_CURSOR}`);
			drawn = 0;
		},
	};
}

/** Runs `onKey` for each key until it returns an answer; the terminal is in raw mode meanwhile. */
function readKeys<T>(input: NodeJS.ReadStream, onKey: (key: Key) => T | undefined): Promise<T> {
	return new Promise((resolve) => {
		const wasRaw = input.isRaw === true;
		if (input.isTTY) input.setRawMode(true);
		const done = (answer: T) => {
			input.off("data", onData);
			input.off("end", onEnd);
			if (input.isTTY) input.setRawMode(wasRaw);
			input.pause();
			resolve(answer);
		};
		const onData = (chunk: Buffer | string) => {
			for (const key of keysOf(chunk.toString())) {
				const answer = onKey(key);
				if (answer !== undefined) return done(answer);
			}
		};
		const onEnd = () => done(onKey("cancel") as T);
		input.on("data", onData);
		input.on("end", onEnd);
		input.resume();
	});
}

const paint = (on: boolean, code: number, text: string) => (on ? `\x1b[${code}m${text}\x1b[39m` : text);

/**
 * A menu of `choices` under `message`, redrawn in place as ↑/↓ (or j/k, Tab) move; Enter picks, Esc,
 * Ctrl+C or end of input cancel. Leaves one line: `✔ message › choice` (or `✖ message`).
 */
export async function promptSelect(message: string, choices: readonly string[], io: KeyPromptIO = {}): Promise<string | symbol> {
	const input = io.input ?? process.stdin;
	const output = io.output ?? process.stdout;
	const color = io.color ?? !process.env.NO_COLOR;
	if (input.readableEnded || input.destroyed || choices.length === 0) return CANCEL;
	const screen = screenOn(output);
	let at = 0;
	const render = () =>
		screen.draw([`${paint(color, 36, "?")} ${message}`, ...choices.map((c, i) => (i === at ? `${paint(color, 36, "❯")} ${c}` : `  ${c}`))]);
	render();
	const answer = await readKeys(input, (key): string | symbol | undefined => {
		if (key === "enter") return choices[at] as string;
		if (key === "interrupt") return INTERRUPTED;
		if (key === "cancel" || key === "escape") return CANCEL;
		if (key === "up" || key === "down") {
			at = (at + (key === "up" ? choices.length - 1 : 1)) % choices.length;
			render();
		}
		return undefined;
	});
	const title = message.split("\n", 1)[0] ?? message;
	screen.finish(typeof answer === "string" ? `${paint(color, 32, "✔")} ${title} › ${answer}` : `${paint(color, 31, "✖")} ${title}`);
	return answer;
}

/**
 * A yes/no question: y/n answer at once, ←/→ move, Enter takes the one shown (`initial` first), Esc,
 * Ctrl+C or end of input cancel. Leaves one line: `✔ message › Yes` (or `✖ message`).
 */
export async function promptConfirm(message: string, initial = false, io: KeyPromptIO = {}): Promise<boolean | symbol> {
	const input = io.input ?? process.stdin;
	const output = io.output ?? process.stdout;
	const color = io.color ?? !process.env.NO_COLOR;
	if (input.readableEnded || input.destroyed) return CANCEL;
	const screen = screenOn(output);
	let yes = initial;
	const choice = (label: string, on: boolean) => (on ? paint(color, 36, `● ${label}`) : `○ ${label}`);
	const render = () => screen.draw([`${paint(color, 36, "?")} ${message}`, `${choice("Yes", yes)} / ${choice("No", !yes)}`]);
	render();
	const answer = await readKeys(input, (key): boolean | symbol | undefined => {
		if (key === "y") return true;
		if (key === "n") return false;
		if (key === "enter") return yes;
		if (key === "interrupt") return INTERRUPTED;
		if (key === "cancel" || key === "escape") return CANCEL;
		if (key === "left" || key === "right" || key === "up" || key === "down") {
			yes = !yes;
			render();
		}
		return undefined;
	});
	const title = message.split("\n", 1)[0] ?? message;
	screen.finish(
		typeof answer === "boolean" ? `${paint(color, 32, "✔")} ${title} › ${answer ? "Yes" : "No"}` : `${paint(color, 31, "✖")} ${title}`,
	);
	return answer;
}
