import { XcshError } from "../errors.ts";
import { eventCommand } from "../agents/_shared/entry-shell.ts";
import type { AgentSpec } from "./agents.ts";
import type { EntryChange } from "./entries.ts";
import { installError } from "./errors.ts";

/*
 * Codex's managed channel is TOML (`/etc/codex/requirements.toml`), with hooks as inline tables in the
 * same shape as its hooks.json (`[[hooks.<Event>]]` groups, `[[hooks.<Event>.hooks]]` handlers). We edit
 * no TOML we did not write: our entries are one marked block appended to the file, and the switch is one
 * marked line at its top (a top-level key must come before the first table). Uninstall removes exactly
 * those bytes. A file that defines `hooks` as an inline value, or sets the switch itself to something
 * else, is refused rather than guessed at.
 */

const BEGIN = (agent: string) => `# >>> xcsh-hooks managed entries (xcsh-hooks uninstall ${agent} --managed removes this block)\n`;
const END = "# <<< xcsh-hooks managed entries\n";
const SWITCH_MARK = "# xcsh-hooks --only-managed";

/** A TOML value for a JSON scalar: basic strings share JSON's escapes for what we write. */
function tomlValue(value: unknown): string {
	if (typeof value === "string") return JSON.stringify(value);
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	throw new XcshError("INVALID_INPUT", `cannot write ${JSON.stringify(value)} as a TOML value`);
}

/** Our block: one group and handler per event. */
function block(spec: AgentSpec, command: string): string {
	const lines: string[] = [BEGIN(spec.id).trimEnd()];
	for (const event of spec.events) {
		lines.push(`[[hooks.${event.name}]]`);
		if (event.matcher !== undefined) lines.push(`matcher = ${tomlValue(event.matcher)}`);
		lines.push(`[[hooks.${event.name}.hooks]]`);
		for (const [key, value] of Object.entries(spec.handler(event, eventCommand(command, event))))
			lines.push(`${key} = ${tomlValue(value)}`);
	}
	lines.push(END.trimEnd());
	return `${lines.join("\n")}\n`;
}

/** Where the first table header (`[t]` or `[[t]]`, maybe indented) starts: top-level keys live before it. */
const firstTableAt = (text: string): number => /^[ \t]*\[/m.exec(text)?.index ?? text.length;

function ourBlock(text: string, agent: string): { start: number; end: number } | undefined {
	const start = text.indexOf(BEGIN(agent));
	if (start < 0) return undefined;
	const end = text.indexOf(END, start);
	return end < 0 ? undefined : { start, end: end + END.length };
}

/** The text with our entries (and, with `key`, the switch) added; the changes made. */
export function addTomlEntries(
	text: string,
	spec: AgentSpec,
	command: string,
	file: string,
	key: string | undefined,
): { text: string; changes: EntryChange[] } {
	if (/^\s*hooks\s*=/m.test(text.slice(0, firstTableAt(text))))
		throw installError("shape", file, `${file}: hooks is set as an inline value; move it to [[hooks.<Event>]] tables first; not changed`);
	const wanted = block(spec, command);
	const found = ourBlock(text, spec.id);
	const changes: EntryChange[] = [];
	let next = text;
	if (!found) {
		next = `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${wanted}`;
		for (const e of spec.events) changes.push({ action: "add", event: e.name, ...(e.matcher ? { matcher: e.matcher } : {}), command });
	} else if (text.slice(found.start, found.end) !== wanted) {
		next = text.slice(0, found.start) + wanted + text.slice(found.end);
		for (const e of spec.events) changes.push({ action: "update", event: e.name, ...(e.matcher ? { matcher: e.matcher } : {}), command });
	}
	// The pin comes with every managed install: without it the user's `[features] hooks = false` turns ours off.
	const pin = spec.managed?.alsoPin;
	if (pin) next = addPin(next, pin, file, changes);
	if (key) {
		// Only a top-level key is the switch: the same name inside some table switches nothing.
		const line = new RegExp(`^[ \\t]*${key}\\s*=\\s*(.*)$`, "m").exec(next.slice(0, firstTableAt(next)));
		if (!line) {
			next = `${key} = true ${SWITCH_MARK}\n${next}`;
			changes.push({ action: "add", event: key, command: "true" });
		} else if (!/^true\b/.test(line[1] as string))
			throw installError("shape", file, `${file}: ${key} is already set (${line[1]}); set it to true yourself; not changed`);
	}
	return { text: next, changes };
}

/**
 * Pins `<table>.<key> = true`: inside an existing `[table]` (after its header), else as a top-level dotted
 * key (a second `[table]` header would be invalid TOML). A value the file already sets is kept when true,
 * refused otherwise.
 */
function addPin(text: string, pin: { table: string; key: string }, file: string, changes: EntryChange[]): string {
	// The header may end the file without a newline, or end in CRLF: still that table (a dotted key at the top
	// would then define it twice, which is invalid TOML and would leave the agent without its requirements).
	const header = new RegExp(`^[ \\t]*\\[[ \\t]*${pin.table}[ \\t]*\\][ \\t]*(#.*)?(\\r?\\n|$(?![\\s\\S]))`, "m").exec(text);
	let existing: RegExpExecArray | null;
	if (header) {
		const start = header.index + header[0].length;
		const next = /^\[/m.exec(text.slice(start));
		const body = text.slice(start, next ? start + next.index : text.length);
		existing = new RegExp(`^${pin.key}\\s*=\\s*(.*)$`, "m").exec(body);
		if (!existing) {
			changes.push({ action: "add", event: `${pin.table}.${pin.key}`, command: "true" });
			const gap = header[0].endsWith("\n") ? "" : "\n";
			return `${text.slice(0, start)}${gap}${pin.key} = true ${SWITCH_MARK}\n${text.slice(start)}`;
		}
	} else {
		existing = new RegExp(`^[ \\t]*${pin.table}\\.${pin.key}\\s*=\\s*(.*)$`, "m").exec(text.slice(0, firstTableAt(text)));
		if (!existing) {
			changes.push({ action: "add", event: `${pin.table}.${pin.key}`, command: "true" });
			return `${pin.table}.${pin.key} = true ${SWITCH_MARK}\n${text}`;
		}
	}
	if (!/^true\b/.test(existing[1] as string))
		throw installError("shape", file, `${file}: ${pin.table}.${pin.key} is set to ${existing[1]}; --managed needs it true; not changed`);
	return text;
}

/** The text without our block and our switch line; the changes made. */
export function removeTomlEntries(text: string, spec: AgentSpec): { text: string; changes: EntryChange[] } {
	const changes: EntryChange[] = [];
	let next = text;
	const found = ourBlock(next, spec.id);
	if (found) {
		next = next.slice(0, found.start) + next.slice(found.end);
		for (const e of spec.events) changes.push({ action: "remove", event: e.name, command: "" });
	}
	// Every line we marked: the switch, and the pin (`features.hooks = true`, or `hooks = true` in `[features]`).
	const marked = new RegExp(`^([\\w.]+) = true ${SWITCH_MARK}\\n`, "gm");
	for (const match of [...next.matchAll(marked)].reverse()) {
		next = next.slice(0, match.index) + next.slice(match.index + match[0].length);
		changes.push({ action: "remove", event: match[1] as string, command: "true" });
	}
	return { text: next, changes };
}
