import { isOneLine, oneLine } from "../one-line.ts";
import type { DecisionEntry } from "./decision-log.ts";

/** One line of the log, parsed. */
export interface LoggedDecision {
	/** 1-based line number in the file. */
	line: number;
	/** The line exactly as stored. */
	raw: string;
	entry: DecisionEntry & { time: string };
}

/** Result of {@link parseDecisionLines}. */
export interface ParsedDecisions {
	decisions: LoggedDecision[];
	/** One per line skipped: torn (half-written) or not a decision. */
	warnings: string[];
}

const isDecision = (value: unknown): value is DecisionEntry & { time: string } => {
	if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
	const v = value as Record<string, unknown>;
	return typeof v.time === "string" && typeof v.agent === "string" && typeof v.event === "string" && typeof v.decision === "string";
};

/**
 * Parses complete log lines (`firstLine` numbers the first one); blank lines are ignored, a line that
 * is not a decision object is skipped with a warning naming `file` and the line number.
 */
export function parseDecisionLines(text: string, file: string, firstLine = 1): ParsedDecisions {
	const decisions: LoggedDecision[] = [];
	const warnings: string[] = [];
	text.split("\n").forEach((raw, i) => {
		const line = firstLine + i;
		if (!raw.trim()) return;
		let value: unknown;
		try {
			value = JSON.parse(raw);
		} catch {
			warnings.push(`${file}:${line}: not a complete JSON line (torn write?), skipped`);
			return;
		}
		if (isDecision(value)) decisions.push({ line, raw, entry: value });
		else warnings.push(`${file}:${line}: not a decision (needs time, agent, event, decision), skipped`);
	});
	return { decisions, warnings };
}

/** Whether `entry` belongs to `session`: the full id or a prefix of it (as `log` shows it, shortened). */
export function matchesSession(entry: DecisionEntry, session: string | undefined): boolean {
	return session === undefined || (typeof entry.session === "string" && entry.session.startsWith(session));
}

/** A field as `log` shows it: text on one line, control characters escaped; a stored non-string (a hand-edited log) as its JSON. */
function shown(value: unknown): string {
	return oneLine(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
}

/**
 * One readable line: time, agent, session (short), event/tool, decision, reason, hook. Anyone who can
 * append to the log (a hook, a project's guard) chooses these strings, so every field is shown on one
 * line with its control characters escaped (src/one-line.ts): a newline cannot forge a second
 * decision, an ESC cannot drive the terminal.
 */
export function formatDecision(entry: DecisionEntry & { time: string }): string {
	const [head, tail] = decisionParts(entry);
	return tail ? `${head} ${tail}` : head;
}

/**
 * {@link formatDecision} in two parts: the columns (time, agent, session, event/tool, decision, time taken)
 * and what follows them (subagent, reason, hook; "" when none), so that `log` can wrap the second under the first.
 */
export function decisionParts(entry: DecisionEntry & { time: string }): [head: string, tail: string] {
	const time = shown(entry.time.replace("T", " ").replace(/\.\d+Z$|Z$/, ""));
	const session = entry.session ? shown(String(entry.session).slice(0, 8)) : "-";
	const what = entry.tool ? `${shown(entry.event)}/${shown(entry.tool)}` : shown(entry.event);
	const by = entry.subagent ? `[subagent ${shown(entry.subagentType ? `${entry.subagentType} ${entry.subagent}` : entry.subagent)}]` : "";
	const took = typeof entry.durationMs === "number" ? ` ${entry.durationMs}ms` : "";
	const reason = entry.reason ? `"${shown(entry.reason)}"` : "";
	const hook = entry.hook ? `(${shown(entry.hook)})` : "";
	const head = `${time}  ${shown(entry.agent).padEnd(7)} ${session.padEnd(8)}  ${what.padEnd(22)} ${shown(entry.decision).padEnd(7)}${took}`;
	return [head.trimEnd(), [by, reason, hook].filter(Boolean).join(" ")];
}

/**
 * A stored line as `log --json` prints it: as stored when it is one line with no control characters
 * (the usual case), else the same JSON written again with them escaped (`\u2028`, `\u001b`… are
 * JSON's own escapes, so the line still parses to the same entry).
 */
export function jsonLine(decision: LoggedDecision): string {
	return isOneLine(decision.raw) ? decision.raw : oneLine(JSON.stringify(decision.entry));
}
