import { writeSync } from "node:fs";
// The writer alone: the log reader and formatter (the `log` command) stay off emit and bridge start-up.
import { appendDecision, type DecisionEntry, decisionLogEnabled } from "../decisions/decision-log.ts";
import type { Dispatched } from "./dispatch.ts";
import type { Host } from "./host.ts";

/** How a dispatched `tool_call` reads in the decision log. */
export function decisionOf(dispatched: Dispatched): Pick<DecisionEntry, "decision" | "reason" | "hook"> {
	const { stopped, result, hookPath } = dispatched;
	if (stopped !== undefined) return { decision: "deny", reason: stopped, hook: hookPath };
	const rewritten = (result as { input?: unknown } | undefined)?.input !== undefined;
	return rewritten ? { decision: "rewrite", hook: hookPath } : { decision: "allow", hook: hookPath };
}

/**
 * Appends one guard decision to `~/.xcsh/agent/decisions.jsonl` unless the user's settings say
 * `"decisionLog": false`. Never throws: a log that cannot be written is one warning on stderr.
 */
export function logDecision(host: Pick<Host, "settings">, entry: DecisionEntry): void {
	appendDecision(entry, {
		enabled: decisionLogEnabled(host.settings),
		onWarning: (warning) => void writeSync(2, `warning: ${warning}\n`),
	});
}
