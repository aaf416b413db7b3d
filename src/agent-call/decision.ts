import { isRecord } from "../agents/_shared/answer.ts";
import type { AgentBridge, Outcome } from "../agents/_shared/bridge-types.ts";
import { type DecisionRecord, decisionRecord, type ToolCallDecision } from "../decisions/decide.ts";
import type { Mapped } from "./map.ts";

/** What a guard event decided, for the decision log (never the tool's input or output). */
export type BridgeDecision = DecisionRecord;

/** An agent's answer to a guard event as a decision: a deny with its reason, an ask, a rewrite, or an allow. */
function decided(outcome: Outcome): ToolCallDecision {
	if (outcome.kind === "deny") return { decision: "deny", reason: outcome.reason };
	if (outcome.kind === "ask") return { decision: "ask", reason: outcome.reason };
	if (outcome.kind === "rewrite") return { decision: "rewrite", input: outcome.input };
	return { decision: "allow" };
}

/** The guard's decision record for an outcome: who asked (the agent, its session, the subagent, the tool) and the verdict. */
export function decisionOf(agent: AgentBridge, event: string, payload: unknown, outcome: Outcome, mapped?: Mapped): BridgeDecision {
	const p = isRecord(payload) ? payload : {};
	// The tool a guard event is about (`tool_call`, `permission_request`).
	const tool = mapped?.kind === "event" && "toolName" in mapped.event ? mapped.event : undefined;
	let subagent: ReturnType<NonNullable<AgentBridge["subagent"]>>;
	try {
		subagent = agent.subagent?.(p);
	} catch {
		subagent = undefined; // a record is never lost to a payload the reader chokes on
	}
	const origin = {
		agent: agent.name,
		session: agent.sessionId(p),
		event,
		tool: tool?.toolName,
		subagent: subagent?.id,
		subagentType: subagent?.type,
		mcpServer: tool?.mcp?.server || undefined,
	};
	return decisionRecord(origin, decided(outcome), 0);
}
