import { writeSync } from "node:fs";
// The writer alone: the log reader and formatter (the `log` command) stay off emit and bridge start-up.
import { appendDecision, type DecisionEntry, decisionLogEnabled } from "./decision-log.ts";
import type { DecisionRecord } from "./decide.ts";
import { exportDecision, otlpTarget } from "./otlp.ts";

/**
 * Appends one guard decision to `~/.xcsh/agent/decisions.jsonl` unless the user's settings say
 * `"decisionLog": false`, and queues it for the OpenTelemetry collector when one is configured
 * (src/decisions/otlp.ts; `env` is the calling agent's, which names it). The export does not depend on
 * `decisionLog`: a user silencing the local file does not silence the team's collector. Never throws: a
 * log that cannot be written is one warning (on stderr, or to `warn`); an export that fails is lost quietly.
 */
export function logDecision(
	host: { settings: Record<string, unknown> },
	entry: DecisionEntry,
	env: Readonly<Record<string, string | undefined>> = process.env,
	warn: (warning: string) => void = (warning) => void writeSync(2, `warning: ${warning}\n`),
): void {
	const time = entry.time ?? new Date().toISOString();
	appendDecision({ ...entry, time }, { enabled: decisionLogEnabled(host.settings), onWarning: warn });
	try {
		const target = otlpTarget(host.settings, env);
		if (target) exportDecision(target, { ...entry, time });
	} catch {
		// the collector is never a reason for a call to fail
	}
}

/**
 * Puts the guard decision of a bridge call's `answer` on record (the decision log; durations to 0.1 ms),
 * with the settings of its host and the calling agent's `env` (which may name an OTLP collector);
 * nothing for other events. The answer still goes out if the log cannot be written.
 */
export function recordDecision(
	answer: { decision?: DecisionRecord | undefined; settings?: Record<string, unknown> | undefined },
	env: Readonly<Record<string, string | undefined>> = process.env,
): void {
	if (answer.decision)
		logDecision(
			{ settings: answer.settings ?? {} },
			{ ...answer.decision, durationMs: Math.round(answer.decision.durationMs * 10) / 10 },
			env,
		);
}
