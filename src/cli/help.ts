import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { isTerminal } from "../process/tty.ts";

/** Help text is laid out for this many columns (a narrower terminal wraps, nothing is cut). */
export const HELP_WIDTH = 80;

/** How help text is styled: ANSI on a terminal, plain in a pipe or with `NO_COLOR`. */
export interface HelpStyle {
	heading(text: string): string;
	name(text: string): string;
	dim(text: string): string;
}

const plain = (text: string) => text;
const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

/** The style for output on `fd`: colour only when it is a terminal and `NO_COLOR` is unset or empty (no-color.org). */
export function helpStyle(fd = 1): HelpStyle {
	if (process.env.NO_COLOR || !isTerminal(fd)) return { heading: plain, name: plain, dim: plain };
	return { heading: sgr(1, 22), name: sgr(36, 39), dim: sgr(90, 39) };
}

/** Words of `text` in lines of at most `width` columns; a word longer than that gets a line of its own. */
export function wrap(text: string, width: number): string[] {
	const lines: string[] = [];
	let line = "";
	for (const word of text.split(/\s+/).filter(Boolean)) {
		if (line && Bun.stringWidth(line) + 1 + Bun.stringWidth(word) > width) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	if (line) lines.push(line);
	return lines;
}

/**
 * Unindented lines that follow each other are one paragraph (source text wrapped at its own width),
 * joined here so that {@link wrapBlock} reflows them; indented lines (a table) and blank lines stay.
 */
function paragraphs(text: string): string[] {
	const lines: string[] = [];
	let prose = false;
	for (const line of text.split("\n")) {
		const isProse = line !== "" && !/^\s/.test(line);
		if (isProse && prose) lines[lines.length - 1] += ` ${line}`;
		else lines.push(line);
		prose = isProse;
	}
	return lines;
}

/**
 * A description that may hold its own layout (`serve`'s protocol table): paragraphs are reflowed,
 * each table line is kept, and one longer than `width` is wrapped with a hanging indent under where
 * its text starts.
 */
function wrapBlock(text: string, width: number): string[] {
	const out: string[] = [];
	for (const raw of paragraphs(text)) {
		if (Bun.stringWidth(raw) <= width) {
			out.push(raw);
			continue;
		}
		const hang = /^(\s*\S+\s{2,})/.exec(raw)?.[1]?.length ?? /^\s*/.exec(raw)?.[0].length ?? 0;
		const indent = " ".repeat(hang < width / 2 ? hang : 0);
		const [first = "", ...rest] = wrap(raw.slice(indent.length), width - indent.length);
		out.push(raw.slice(0, indent.length) + first, ...rest.map((l) => indent + l));
	}
	return out;
}

/** A command's one-line summary: its description up to the first line break or sentence end. */
export function summaryOf(description: string | undefined): string {
	const first = (description ?? "").split("\n", 1)[0] ?? "";
	const sentence = /^(.*?[^.])\.(\s|$)/.exec(first)?.[1] ?? first;
	return sentence.trim();
}

/** Two columns: `left` padded to `column`, then `right` wrapped in what is left of {@link HELP_WIDTH}. */
function twoColumns(rows: Array<[left: string, right: string]>, style: HelpStyle, column: number): string[] {
	const lines: string[] = [];
	const room = HELP_WIDTH - column;
	for (const [left, right] of rows) {
		const pad = " ".repeat(Math.max(column - 4 - Bun.stringWidth(left), 0));
		const wrapped = wrap(right, room);
		if (2 + Bun.stringWidth(left) + 2 > column) {
			// A long option name gets its own line; its description goes below it.
			lines.push(`  ${style.name(left)}`, ...wrapped.map((l) => " ".repeat(column) + l));
			continue;
		}
		const [first = "", ...rest] = wrapped;
		lines.push(`  ${style.name(left)}${pad}${first ? `  ${first}` : ""}`.trimEnd(), ...rest.map((l) => " ".repeat(column) + l));
	}
	return lines;
}

const flagOf = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
const aliasesOf = (def: ArgDef): string[] => ("alias" in def && def.alias ? ([] as string[]).concat(def.alias) : []);

/** An option as help shows it: short aliases first, then the long names (`-e, --hook, --extension <path>`). */
function optionLabel(name: string, def: ArgDef): string {
	const names = [name, ...aliasesOf(def)].sort((a, b) => a.length - b.length).map(flagOf);
	if (def.type === "boolean") return def.default === true ? `--no-${name}` : names.join(", ");
	const hint = def.type === "enum" && def.options ? def.options.join("|") : ("valueHint" in def && def.valueHint) || "value";
	return `${names.join(", ")} <${hint}>`;
}

function optionText(def: ArgDef): string {
	if (def.type === "boolean" && def.default === true)
		return ("negativeDescription" in def && def.negativeDescription) || `Turn off: ${def.description ?? ""}`;
	const text = def.description ?? "";
	if (def.type !== "boolean" && def.default !== undefined && !text.includes("default")) return `${text} (default: ${String(def.default)})`;
	return text;
}

/** Options shared by every command, listed once in the top-level help. */
const TOP_OPTIONS: Array<[string, string]> = [
	["--cwd <dir>", "A folder of the project (default: the current directory); the project is found from it"],
	["-e, --hook <path>", "Load this hook file too (repeatable; --extension is an alias)"],
	["--no-discovery", "Only load the hooks given with --hook"],
	["--json", "Print machine-readable JSON"],
	["-h, --help", "Show help (xcsh-hooks help <command> for one command)"],
	["-v, --version", "Show the version of xcsh-hooks and of the Bun inside"],
];

/** The top-level help: every command with its summary (from `summaries`, else its description's first sentence), the global options; at most 80 columns. */
export function renderRootHelp(
	description: string,
	commands: Array<[name: string, command: CommandDef<ArgsDef>]>,
	summaries: Partial<Record<string, string>> = {},
	style: HelpStyle = helpStyle(),
): string {
	const column = Math.max(...commands.map(([name]) => name.length)) + 6;
	// A summary that does not fit wraps under itself: nothing is ever cut mid-word.
	const rows = commands.map(([name, command]): [string, string] => [
		name,
		summaries[name] ?? summaryOf(resolved(command.meta)?.description),
	]);
	return [
		...wrap(description, HELP_WIDTH),
		"",
		`${style.heading("Usage:")} xcsh-hooks [options] <command> [arguments…]`,
		"",
		style.heading("Commands:"),
		...twoColumns(rows, style, column),
		"",
		style.heading("Options:"),
		...twoColumns(TOP_OPTIONS, style, 22),
		"",
		...wrap("Run xcsh-hooks help <command> (or xcsh-hooks <command> --help) for a command's options.", HELP_WIDTH).map(style.dim),
	].join("\n");
}

/** One command's help: usage, full description, arguments and options; at most 80 columns. */
export function renderCommandHelp(name: string, command: CommandDef<ArgsDef>, style: HelpStyle = helpStyle()): string {
	const args = Object.entries((resolved(command.args) ?? {}) as ArgsDef);
	const positionals = args.filter(([, def]) => def.type === "positional");
	const options = args.filter(([, def]) => def.type !== "positional");
	const usage = [
		"xcsh-hooks",
		name,
		...(options.length ? ["[options]"] : []),
		...positionals.map(([arg, def]) => (def.required === false || def.default !== undefined ? `[${arg}]` : `<${arg}>`)),
		...(name === "command" ? ["[args…]"] : []),
	].join(" ");
	const lines = [`${style.heading("Usage:")} ${usage}`, "", ...wrapBlock(resolved(command.meta)?.description ?? "", HELP_WIDTH)];
	const column = 26;
	if (positionals.length) {
		const rows = positionals.map(([arg, def]): [string, string] => [`<${arg}>`, optionText(def)]);
		lines.push("", style.heading("Arguments:"), ...twoColumns(rows, style, column));
	}
	const rows = options.map(([arg, def]): [string, string] => [optionLabel(arg, def), optionText(def)]);
	rows.push(["-h, --help", "Show this help"]);
	lines.push("", style.heading("Options:"), ...twoColumns(rows, style, column));
	return lines.join("\n");
}

/** citty allows `meta` and `args` to be values or (async) functions; ours are always plain values. */
function resolved<T>(value: T | (() => T) | Promise<T> | (() => Promise<T>) | undefined): T | undefined {
	return typeof value === "function" || value instanceof Promise ? undefined : value;
}
