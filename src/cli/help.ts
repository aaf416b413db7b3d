import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { isTerminal } from "../process/tty.ts";
import type { CliCommand, CliMeta } from "./_shared.ts";

/*
 * Help is citty's `renderUsage` of the command's own definition (its summary, arguments, options and
 * sub-commands), fitted to a terminal of 80 columns: citty lays out columns at any width and colours
 * by environment variables only, so here its lines are wrapped under their column, its colour is
 * dropped unless stdout is a terminal (and NO_COLOR is unset), and the command's `details` go under
 * its summary. Loaded only for help and docs: never on an agent's hot path.
 */

/** Help text is laid out for this many columns (a narrower terminal wraps, nothing is cut). */
export const HELP_WIDTH = 80;

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
 * joined here so that they reflow; indented lines (a table, as `serve` has) and blank lines stay.
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
 * One line in at most `width` columns: a line of a two-column section (`  --cwd=<dir>  A folder…`)
 * wraps under its second column (or, when that starts past the middle, under its first); a row of
 * names joined by `|` breaks after a `|`.
 */
function fit(line: string, width: number): string[] {
	if (Bun.stringWidth(line) <= width) return [line];
	const column = /^(\s*\S(?:\S| (?! ))*\s{2,})/.exec(line)?.[1]?.length ?? /^\s*/.exec(line)?.[0].length ?? 0;
	const hang = column < width / 2 ? column : (/^\s*/.exec(line)?.[0].length ?? 0) + 4;
	const words = line.slice(column).replaceAll("|", "| ");
	const [first = "", ...rest] = wrap(words, width - hang).map((l) => l.replaceAll("| ", "|"));
	const head = column < width / 2 ? line.slice(0, column) + first : [line.slice(0, column).trimEnd(), " ".repeat(hang) + first];
	return [...(Array.isArray(head) ? head : [head]), ...rest.map((l) => " ".repeat(hang) + l)];
}

/** `text` (prose paragraphs and indented tables) in at most `width` columns. */
export function fitText(text: string, width = HELP_WIDTH): string[] {
	return paragraphs(text).flatMap((line) => (/^\s/.test(line) ? fit(line, width) : line === "" ? [""] : wrap(line, width)));
}

/** The definition citty renders: long aliases (`--extension`) are named in the description (citty would print `-extension`). */
function shownArgs(args: ArgsDef, withHelp: boolean): ArgsDef {
	const shown: ArgsDef = {};
	for (const [name, def] of Object.entries(args)) {
		const aliases = "alias" in def && def.alias ? ([] as string[]).concat(def.alias) : [];
		const copy = { ...def } as ArgDef & { alias?: string[]; valueHint?: string };
		if (def.type === "positional") delete copy.valueHint;
		else if (aliases.length > 0) copy.alias = aliases.filter((a) => a.length === 1);
		shown[name] = copy;
	}
	if (withHelp) shown.help = { type: "boolean", alias: ["h"], description: "Show this help" };
	return shown;
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Colour only on a terminal, and never with `NO_COLOR` set (no-color.org): citty decides by environment variables alone. */
const colour = (fd: number) => !process.env.NO_COLOR && isTerminal(fd);
const bold = (text: string) => `\x1b[1m${text}\x1b[22m`;
const cyan = (text: string) => `\x1b[36m${text}\x1b[39m`;

/** A line of citty's usage in at most 80 columns; at a terminal with its heading bold or its name (first column) cyan. */
function shownLine(line: string, coloured: boolean): string[] {
	const lines = fit(line.trimEnd(), HELP_WIDTH);
	if (!coloured) return lines;
	const [first = "", ...rest] = lines;
	const head = /^[A-Z]+(?: |$)/.test(first)
		? first.replace(/^[A-Z]+/, bold)
		: first.replace(/^(\s+)(\S(?:\S| (?! ))*)(?=\s{2}|$)/, (_, space: string, name: string) => space + cyan(name));
	return [head, ...rest];
}

/**
 * The help of the command at `path` (`[]` for the root, `["guard", "explain"]`): citty's usage of it,
 * with its details under the summary, in at most 80 columns; coloured at a terminal.
 */
export async function renderHelp(path: readonly string[], command: CliCommand, root: CliMeta, coloured = colour(1)): Promise<string> {
	const { renderUsage } = await import("citty");
	const meta = command.meta;
	const args = (command.args ?? {}) as ArgsDef;
	const subCommands = command.subCommands as Record<string, () => Promise<CliCommand>> | undefined;
	// A sub-command's name in the usage line: the names above it as its parent's.
	const parent = path.length === 0 ? undefined : { meta: { name: ["xcsh-hooks", ...path.slice(0, -1)].join(" "), version: root.version } };
	const shown = {
		...command,
		meta: { ...meta, name: path.at(-1) ?? root.name, version: root.version },
		args: shownArgs(args, path.length > 0),
	};
	const usage = (await renderUsage(shown as CommandDef<ArgsDef>, parent as CommandDef<ArgsDef> | undefined))
		.replace(ANSI, "")
		// citty's usage line lists every sub-command (`init|types|…`): the COMMANDS section names them one a line.
		.replace(
			/^(USAGE .*?) [\w-]+(?:\|[\w-]+)+$/m,
			(_, head: string) => `${head} <${subCommands && path.length === 0 ? "command" : "action"}>`,
		);
	const [summary = "", ...rest] = usage.split("\n");
	const details = meta.details ? ["", ...fitText(meta.details)] : [];
	return [...wrap(summary, HELP_WIDTH), ...details, ...rest.flatMap((line) => shownLine(line, coloured))].join("\n").trimEnd();
}
