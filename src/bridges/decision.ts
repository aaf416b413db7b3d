import { isRecord } from "../agents/_shared/answer.ts";
import type { AgentBridge, Outcome } from "../agents/_shared/bridge-types.ts";
import { logDecision } from "../host/decisions.ts";
import { oneLine } from "../one-line.ts";
import type { Mapped } from "./map.ts";

/** What a guard event decided, for the decision log (never the tool's input or output). */
export interface BridgeDecision {
	agent: string;
	session?: string | undefined;
	/** The agent's event name. */
	event: string;
	/** The tool as hooks saw it (`bash`, `mcp__files__delete_path`), when the payload named one. */
	tool?: string | undefined;
	/** The subagent that made the call (its id), and its type. */
	subagent?: string | undefined;
	subagentType?: string | undefined;
	/** The MCP server of an MCP tool. */
	mcpServer?: string | undefined;
	decision: "allow" | "deny" | "rewrite" | "ask";
	reason?: string | undefined;
	/** Path of the hook that decided (blocked or rewrote, or the last that answered), as `emit`'s entries carry it. */
	hook?: string | undefined;
	durationMs: number;
}

/**
 * Puts the guard decision of `answer` on record (docs/contract.md#bridges, the decision log; durations to 0.1 ms), with
 * the settings of its host and the calling agent's `env` (which may name an OTLP collector); nothing for other events. The answer still goes out if the log cannot be written.
 */
export function recordDecision(
	answer: { decision?: BridgeDecision | undefined; settings?: Record<string, unknown> | undefined },
	env: Readonly<Record<string, string | undefined>> = process.env,
): void {
	if (answer.decision)
		logDecision(
			{ settings: answer.settings ?? {} },
			{ ...answer.decision, durationMs: Math.round(answer.decision.durationMs * 10) / 10 },
			env,
		);
}

/** The guard's decision record for an outcome. */
export function decisionOf(agent: AgentBridge, event: string, payload: unknown, outcome: Outcome, mapped?: Mapped): BridgeDecision {
	const p = isRecord(payload) ? payload : {};
	const decision = outcome.kind === "deny" || outcome.kind === "ask" || outcome.kind === "rewrite" ? outcome.kind : "allow";
	const tool =
		mapped?.kind === "event" && (mapped.event.type === "tool_call" || mapped.event.type === "permission_request")
			? mapped.event
			: undefined;
	let subagent: ReturnType<NonNullable<AgentBridge["subagent"]>>;
	try {
		subagent = agent.subagent?.(p);
	} catch {
		subagent = undefined; // a record is never lost to a payload the reader chokes on
	}
	return {
		agent: agent.name,
		session: agent.sessionId(p),
		event,
		tool: tool?.toolName,
		subagent: subagent?.id,
		subagentType: subagent?.type,
		mcpServer: tool?.mcp?.server || undefined,
		decision,
		reason: outcome.kind === "deny" || outcome.kind === "ask" ? oneLine(outcome.reason) : undefined,
		durationMs: 0,
	};
}
