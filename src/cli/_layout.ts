/*
 * Tables for a terminal of 80 columns, as gh lays them out: short columns first, the long one (a
 * path, a reason) last and wrapped under itself, so no line is wider than 80 and nothing is cut.
 */
import { homedir } from "node:os";
import { relative } from "pathe";
import { HELP_WIDTH, wrap } from "./help.ts";

/** Lines of `text` in at most `width` columns; a word wider than that (a long path) is split. */
export function wrapHard(text: string, width: number): string[] {
	return wrap(text, width).flatMap((line) => {
		if (Bun.stringWidth(line) <= width) return [line];
		const parts: string[] = [];
		let part = "";
		for (const ch of line) {
			if (Bun.stringWidth(part + ch) > width) {
				parts.push(part);
				part = "";
			}
			part += ch;
		}
		return part ? [...parts, part] : parts;
	});
}

/**
 * Rows of cells: every column but the last padded to its widest cell, the last wrapped in what is left
 * of 80 columns. `more` lines of a row (details, reasons) go below it, under the last column.
 */
export function narrowTable(rows: Array<{ cells: string[]; more?: string[] }>): string[] {
	const count = Math.max(...rows.map((r) => r.cells.length));
	const widths = Array.from({ length: count - 1 }, (_, col) => Math.max(...rows.map((r) => Bun.stringWidth(r.cells[col] ?? ""))));
	const indent = widths.reduce((sum, w) => sum + w + 2, 0);
	const room = Math.max(HELP_WIDTH - indent, 20);
	const pad = " ".repeat(indent);
	const lines: string[] = [];
	for (const { cells, more = [] } of rows) {
		const lead = widths.map((w, col) => (cells[col] ?? "").padEnd(w + 2)).join("");
		const [first = "", ...rest] = wrapHard(cells[count - 1] ?? "", room);
		lines.push(`${lead}${first}`.trimEnd(), ...rest.map((l) => pad + l));
		for (const text of more) lines.push(...wrapHard(text, room).map((l) => pad + l));
	}
	return lines;
}

/** A path as a user reads it: relative inside `cwd`, `~/…` inside the home directory, else as it is. */
export function shownPath(path: string, cwd: string): string {
	if (path.startsWith(`${cwd}/`)) return relative(cwd, path);
	const home = process.env.HOME || homedir();
	if (home && path.startsWith(`${home}/`)) return `~/${relative(home, path)}`;
	return path;
}

/** Text wrapped to 80 columns, continuation lines indented by `indent` spaces. */
export function hanging(text: string, indent = 2): string[] {
	const [first = "", ...rest] = wrapHard(text, HELP_WIDTH);
	if (rest.length === 0) return [first];
	const tail = wrapHard(text.slice(first.length).trim(), HELP_WIDTH - indent).map((l) => " ".repeat(indent) + l);
	return [first, ...tail];
}
