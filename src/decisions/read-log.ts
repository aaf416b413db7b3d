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

/** One readable line: time, agent, session (short), event/tool, decision, reason, hook. */
export function formatDecision(entry: DecisionEntry & { time: string }): string {
	const time = entry.time.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
	const session = entry.session ? entry.session.slice(0, 8) : "-";
	const what = entry.tool ? `${entry.event}/${entry.tool}` : entry.event;
	const took = typeof entry.durationMs === "number" ? ` ${entry.durationMs}ms` : "";
	const reason = entry.reason ? ` "${entry.reason.replaceAll(/\s+/g, " ")}"` : "";
	const hook = entry.hook ? ` (${entry.hook})` : "";
	return `${time}  ${entry.agent.padEnd(7)} ${session.padEnd(8)}  ${what.padEnd(22)} ${entry.decision.padEnd(7)}${took}${reason}${hook}`;
}
