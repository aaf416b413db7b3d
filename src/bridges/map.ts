import type { HookEvent } from "../hooks/types.ts";
import type { ToolContent } from "../messages.ts";
import { isRecord } from "../agents/_shared/answer.ts";
import { contentText } from "../agents/_shared/text.ts";
import { checkShape } from "../agents/_shared/fields.ts";
import { canonicalMcpName } from "../agents/_shared/actor.ts";
import { type MappedTool, toAgentInput, toBuiltin } from "../agents/_shared/tools.ts";
import type { AgentBridge, AgentEventSpec, AgentSubagentEvent, AgentToolCall, Outcome, Payload } from "../agents/_shared/bridge-types.ts";

/*
 * The agent-neutral middle of a bridge call: an agent payload becomes one of our events, and what
 * the hooks returned becomes an {@link Outcome} the agent module writes in its own protocol.
 */

/** A payload read as one of our events, or why it is not one. */
export type Mapped =
	| { kind: "event"; event: HookEvent; call?: AgentToolCall; tool?: MappedTool }
	/** The agent event has no counterpart (or is unknown): "no opinion". */
	| { kind: "none"; why: string }
	/** The payload lacks a field or has a wrong type; each message names the field. */
	| { kind: "invalid"; errors: string[] };

/** Whether the event guards a tool call (or answers its approval prompt), so that every failure on it must deny (fail closed). */
export function isGuard(spec: AgentEventSpec | undefined): boolean {
	return spec?.to === "tool_call" || spec?.to === "permission_request";
}

const newCallId = (agent: string) => `${agent}_${crypto.randomUUID().slice(0, 8)}`;

/** Reads a payload of the agent event `name` as our event. */
export function mapPayload(agent: AgentBridge, name: string, payload: unknown): Mapped {
	const spec = agent.events[name];
	if (!spec) return { kind: "none", why: `${agent.name} event "${name}" is not one the bridge knows` };
	if (spec.to === null) return { kind: "none", why: `${agent.name} event "${name}" has no counterpart among the hook events` };
	const errors = checkShape(spec.fields, payload);
	if (errors.length > 0) return { kind: "invalid", errors };
	const p = payload as Payload;
	const skipped = spec.skip?.(p);
	if (skipped !== undefined) return { kind: "none", why: skipped };
	switch (spec.to) {
		case "tool_call":
		case "tool_result": {
			const call = spec.call?.(p);
			if (!call?.name) return { kind: "invalid", errors: [`the ${name} payload names no tool`] };
			const tool = toBuiltin(agent.tools, call.name, call.input);
			// An MCP tool gets our one spelling and `mcp`; answers still use the agent's own name (`call`).
			const mcp = agent.mcpTool?.(call, p, name);
			const base = {
				toolName: mcp ? canonicalMcpName(mcp) : tool.toolName,
				agentToolName: call.name,
				...(mcp ? { mcp } : {}),
				toolCallId: call.id ?? newCallId(agent.name),
				input: tool.input,
			};
			if (spec.to === "tool_call") return { kind: "event", event: { type: "tool_call", ...base }, call, tool };
			const content: ToolContent = [{ type: "text", text: agent.outputText(call) }];
			const event: HookEvent = { type: "tool_result", ...base, content, details: call.output, isError: call.isError ?? false };
			return { kind: "event", event, call, tool };
		}
		case "permission_request": {
			const call = spec.call?.(p);
			if (!call?.name) return { kind: "invalid", errors: [`the ${name} payload names no tool`] };
			const tool = toBuiltin(agent.tools, call.name, call.input);
			const mcp = agent.mcpTool?.(call, p, name);
			const suggestions = spec.suggestions?.(p);
			const event: HookEvent = {
				type: "permission_request",
				toolName: mcp ? canonicalMcpName(mcp) : tool.toolName,
				agentToolName: call.name,
				...(mcp ? { mcp } : {}),
				...(call.id === undefined ? {} : { toolCallId: call.id }),
				input: tool.input,
				...(suggestions === undefined ? {} : { suggestions }),
			};
			return { kind: "event", event, call, tool };
		}
		case "before_agent_start":
			return { kind: "event", event: { type: "before_agent_start", prompt: spec.prompt?.(p) ?? "" } };
		case "session_before_compact": {
			const { preparation, customInstructions } = spec.compaction?.(p) ?? { preparation: {} };
			const event: HookEvent = { type: "session_before_compact", preparation, branchEntries: [] };
			if (customInstructions) event.customInstructions = customInstructions;
			return { kind: "event", event };
		}
		case "agent_end":
			return { kind: "event", event: { type: "agent_end", messages: [] } };
		case "context":
			return { kind: "event", event: { type: "context", messages: spec.messages?.(p) ?? [] } };
		case "subagent_start":
		case "subagent_end": {
			const said = spec.subagentEvent ? spec.subagentEvent(p) : subagentEventOf(agent, p);
			if (!said) return { kind: "invalid", errors: [`the ${name} payload names no subagent`] };
			if (spec.to === "subagent_start") return { kind: "event", event: { type: "subagent_start", subagent: said.subagent } };
			const event: HookEvent = { type: "subagent_end", subagent: said.subagent };
			if (said.lastMessage !== undefined) event.lastMessage = said.lastMessage;
			if (said.transcriptPath !== undefined) event.transcriptPath = said.transcriptPath;
			return { kind: "event", event };
		}
		case "session_start":
		case "session_shutdown":
			return { kind: "event", event: { type: spec.to } };
	}
}

/** The subagent of a lifecycle payload by the bridge's own subagent fields. */
function subagentEventOf(agent: AgentBridge, p: Payload): AgentSubagentEvent | undefined {
	const subagent = agent.subagent?.(p);
	return subagent ? { subagent } : undefined;
}

/**
 * What the hooks decided, from `dispatch`'s answer. A rewritten tool input is returned in our terms
 * (`ours`): {@link rewriteToAgent} checks it and turns it into the agent's.
 */
export function toOutcome(
	event: HookEvent,
	dispatched: { result: unknown; stopped?: string | undefined; asked?: string | undefined },
): Outcome {
	const result = isRecord(dispatched.result) ? dispatched.result : undefined;
	switch (event.type) {
		case "tool_call":
			if (dispatched.stopped || result?.block === true)
				return { kind: "deny", reason: dispatched.stopped || String(result?.reason || "Tool execution was blocked by a hook") };
			if (dispatched.asked !== undefined || result?.ask === true) {
				const reason = dispatched.asked ?? String(result?.reason || "a hook asks for confirmation");
				return isRecord(result?.input) ? { kind: "ask", reason, input: result.input } : { kind: "ask", reason };
			}
			return isRecord(result?.input) ? { kind: "rewrite", input: result.input } : { kind: "none" };
		case "tool_result":
			if (!result || (result.content === undefined && result.details === undefined)) return { kind: "none" };
			return {
				kind: "replace",
				...(result.content === undefined ? {} : { text: contentText(result.content) }),
				...(result.details === undefined ? {} : { details: result.details }),
			};
		case "before_agent_start": {
			const message = isRecord(result?.message) ? result.message : undefined;
			return message ? { kind: "context", text: contentText(message.content) } : { kind: "none" };
		}
		case "context":
			return Array.isArray(result?.messages) ? { kind: "messages", messages: result.messages } : { kind: "none" };
		case "subagent_start":
			return dispatched.stopped ? { kind: "deny-start", reason: dispatched.stopped } : { kind: "none" };
		case "permission_request":
			if (dispatched.stopped || result?.decision === "deny")
				return { kind: "deny", reason: dispatched.stopped || String(result?.reason || "denied by a hook") };
			return result?.decision === "allow" ? { kind: "approve" } : { kind: "none" };
		case "session_before_compact":
			return result?.cancel === true
				? { kind: "cancel", reason: dispatched.stopped || "compaction cancelled by a hook" }
				: { kind: "none" };
		default:
			return { kind: "none" };
	}
}

/** An ask about a rewritten input: the rewrite in the agent's terms, or a plain ask when it changes nothing. */
export async function askToAgent(mapped: Extract<Mapped, { kind: "event" }>, ask: Extract<Outcome, { kind: "ask" }>): Promise<Outcome> {
	if (ask.input === undefined) return ask;
	const rewritten = await rewriteToAgent(mapped, ask.input);
	return rewritten.kind === "rewrite" ? { kind: "ask", reason: ask.reason, input: rewritten.input } : { kind: "ask", reason: ask.reason };
}

/**
 * A hook's rewritten input as the agent's whole input, renamed back (the host's dispatch already
 * checked it against the built-in tool's parameters; an invalid one is a block). A rewrite that
 * changes nothing is "no opinion".
 */
export async function rewriteToAgent(mapped: Extract<Mapped, { kind: "event" }>, input: Record<string, unknown>): Promise<Outcome> {
	const { tool, call } = mapped;
	if (!tool || !call) return { kind: "none" };
	const agentInput = toAgentInput(tool, call.input, input);
	// An unchanged input is no rewrite: answering it would also approve the call in Claude and Cursor.
	return Bun.deepEquals(agentInput, call.input) ? { kind: "none" } : { kind: "rewrite", input: agentInput };
}
