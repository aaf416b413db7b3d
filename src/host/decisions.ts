import { writeSync } from "node:fs";
// The writer alone: the log reader and formatter (the `log` command) stay off emit and bridge start-up.
import { appendDecision, type DecisionEntry, decisionLogEnabled } from "../decisions/decision-log.ts";
import { exportDecision, otlpTarget } from "../decisions/otlp.ts";
import type { Dispatched } from "./dispatch.ts";
import type { Host } from "./host.ts";

/** How a dispatched `tool_call` reads in the decision log. */
export function decisionOf(dispatched: Dispatched): Pick<DecisionEntry, "decision" | "reason" | "hook"> {
	const { stopped, asked, result, hookPath } = dispatched;
	if (stopped !== undefined) return { decision: "deny", reason: stopped, hook: hookPath };
	if (asked !== undefined) return { decision: "ask", reason: asked, hook: hookPath };
	const rewritten = (result as { input?: unknown } | undefined)?.input !== undefined;
	return rewritten ? { decision: "rewrite", hook: hookPath } : { decision: "allow", hook: hookPath };
}

/**
 * Appends one guard decision to `~/.xcsh/agent/decisions.jsonl` unless the user's settings say
 * `"decisionLog": false`, and queues it for the OpenTelemetry collector when one is configured
 * (src/decisions/otlp.ts; `env` is the calling agent's, which names it). The export does not depend on
 * `decisionLog`: a user silencing the local file does not silence the team's collector. Never throws: a
 * log that cannot be written is one warning (on stderr, or to `warn`); an export that fails is lost quietly.
 */
export function logDecision(
	host: Pick<Host, "settings">,
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
