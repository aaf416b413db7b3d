import type { HookEvent } from "../hooks/types.ts";
import { toolCallDecision } from "../decisions/decide.ts";
import { type BridgeKind, type EventRule, eventRule, type OutcomeKind } from "../hooks/event-rules.ts";
import type { ToolContent } from "../messages.ts";
import { isRecord } from "../agents/_shared/answer.ts";
import { contentText } from "../agents/_shared/text.ts";
import { checkShape } from "../agents/_shared/fields.ts";
import { canonicalMcpName } from "../agents/_shared/actor.ts";
import { type MappedTool, toAgentInput, toBuiltin } from "../agents/_shared/tools.ts";
import type { AgentBridge, AgentEventSpec, AgentSubagentEvent, AgentToolCall, Outcome, Payload } from "../agents/_shared/bridge-types.ts";

/*
 * The agent-neutral middle of a bridge call: an agent payload becomes one of our events, and what
 * the hooks returned becomes an {@link Outcome} the agent module writes in its own protocol. Both
 * directions read the event's entry in the event table (`hooks/events.ts`): how a payload becomes it
 * (`bridge`), what its result becomes (`outcome`), whether it guards a call (`guard`).
 */

/** A payload read as one of our events, or why it is not one. */
export type Mapped =
	| { kind: "event"; event: HookEvent; call?: AgentToolCall; tool?: MappedTool }
	/** The agent event has no counterpart (or is unknown): "no opinion". */
	| { kind: "none"; why: string }
	/** The payload lacks a field or has a wrong type; each message names the field. */
	| { kind: "invalid"; errors: string[] };

/** Whether the event guards a call, so that every failure on it must deny (fail closed). */
export function isGuard(spec: AgentEventSpec | undefined): boolean {
	return spec?.to ? eventRule(spec.to)?.guard === true : false;
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
	// The agent's mapping builds the event's fields itself, or the table says how a payload becomes it.
	if (spec.event) return { kind: "event", event: { ...spec.event(p), type: spec.to } as HookEvent };
	const kind = eventRule(spec.to)?.bridge;
	if (!kind) return { kind: "none", why: `${agent.name} event "${name}" maps to ${spec.to}, which a bridge cannot build from a payload` };
	return BUILD[kind](agent, spec, name, p, spec.to);
}

type Build = (agent: AgentBridge, spec: AgentEventSpec, name: string, p: Payload, type: string) => Mapped;

const event = (fields: Record<string, unknown>): Mapped => ({ kind: "event", event: fields as HookEvent });

/** A tool event's fields, with the call and the tool it maps to; or why the payload names no tool. */
function toolEvent(agent: AgentBridge, spec: AgentEventSpec, name: string, p: Payload, type: string) {
	const call = spec.call?.(p);
	if (!call?.name) return undefined;
	const tool = toBuiltin(agent.tools, call.name, call.input);
	// An MCP tool gets our one spelling and `mcp`; answers still use the agent's own name (`call`).
	const mcp = agent.mcpTool?.(call, p, name);
	const base = {
		type,
		toolName: mcp ? canonicalMcpName(mcp) : tool.toolName,
		agentToolName: call.name,
		...(mcp ? { mcp } : {}),
		toolCallId: call.id ?? newCallId(agent.name),
		input: tool.input,
	};
	return { base, call, tool };
}

const noTool = (name: string): Mapped => ({ kind: "invalid", errors: [`the ${name} payload names no tool`] });

/** How a payload becomes an event, by the table's `bridge` kind of the event. */
const BUILD: Record<BridgeKind, Build> = {
	"tool-call"(agent, spec, name, p, type) {
		const built = toolEvent(agent, spec, name, p, type);
		if (!built) return noTool(name);
		return { kind: "event", event: built.base as HookEvent, call: built.call, tool: built.tool };
	},
	"tool-result"(agent, spec, name, p, type) {
		const built = toolEvent(agent, spec, name, p, type);
		if (!built) return noTool(name);
		const { base, call, tool } = built;
		const content: ToolContent = [{ type: "text", text: agent.outputText(call) }];
		const fields = { ...base, content, details: call.output, isError: call.isError ?? false };
		return { kind: "event", event: fields as HookEvent, call, tool };
	},
	permission(agent, spec, name, p, type) {
		const built = toolEvent(agent, spec, name, p, type);
		if (!built) return noTool(name);
		const { base, call, tool } = built;
		const suggestions = spec.suggestions?.(p);
		// An approval prompt carries the call's id only where the agent sends one.
		const { toolCallId: _made, ...fields } = base;
		const event = {
			...fields,
			...(call.id === undefined ? {} : { toolCallId: call.id }),
			...(suggestions === undefined ? {} : { suggestions }),
		};
		return { kind: "event", event: event as HookEvent, call, tool };
	},
	prompt: (_agent, spec, _name, p, type) => event({ type, prompt: spec.prompt?.(p) ?? "" }),
	compaction(_agent, spec, _name, p, type) {
		const { preparation, customInstructions } = spec.compaction?.(p) ?? { preparation: {} };
		const fields: Record<string, unknown> = { type, preparation, branchEntries: [] };
		if (customInstructions) fields.customInstructions = customInstructions;
		return event(fields);
	},
	messages: (_agent, spec, _name, p, type) => event({ type, messages: spec.messages?.(p) ?? [] }),
	subagent(agent, spec, name, p, type) {
		const said = spec.subagentEvent ? spec.subagentEvent(p) : subagentEventOf(agent, p);
		if (!said) return { kind: "invalid", errors: [`the ${name} payload names no subagent`] };
		const fields: Record<string, unknown> = { type, subagent: said.subagent };
		if (said.lastMessage !== undefined) fields.lastMessage = said.lastMessage;
		if (said.transcriptPath !== undefined) fields.transcriptPath = said.transcriptPath;
		return event(fields);
	},
	bare: (_agent, _spec, _name, _p, type) => event({ type }),
};

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
	const rule = eventRule(event.type);
	if (!rule?.outcome) return { kind: "none" };
	return OUTCOME[rule.outcome](isRecord(dispatched.result) ? dispatched.result : undefined, dispatched.stopped, dispatched.asked, rule);
}

/** What a result becomes, by the table's `outcome` of the event. */
const OUTCOME: Record<
	OutcomeKind,
	(result: Record<string, unknown> | undefined, stopped: string | undefined, asked: string | undefined, rule: EventRule) => Outcome
> = {
	deny(result, stopped, asked) {
		const decided = toolCallDecision({ result, stopped, asked });
		if (decided.decision === "deny") return { kind: "deny", reason: decided.reason };
		if (decided.decision === "ask")
			return decided.input ? { kind: "ask", reason: decided.reason, input: decided.input } : { kind: "ask", reason: decided.reason };
		return decided.decision === "rewrite" ? { kind: "rewrite", input: decided.input } : { kind: "none" };
	},
	// An approval prompt: a stop (a hook's deny, or a failure: fail closed) denies, any other answer of the
	// rule's field (`decision: "allow"`) approves, no answer lets the agent ask.
	approve(result, stopped, _asked, rule) {
		if (stopped) return { kind: "deny", reason: stopped };
		const field = rule.combine.rule === "answer" ? rule.combine.field : "decision";
		return result?.[field] !== undefined ? { kind: "approve" } : { kind: "none" };
	},
	replace(result) {
		if (!result || (result.content === undefined && result.details === undefined)) return { kind: "none" };
		return {
			kind: "replace",
			...(result.content === undefined ? {} : { text: contentText(result.content as ToolContent) }),
			...(result.details === undefined ? {} : { details: result.details }),
		};
	},
	context(result) {
		const message = isRecord(result?.message) ? result.message : undefined;
		return message ? { kind: "context", text: contentText(message.content as ToolContent) } : { kind: "none" };
	},
	messages: (result) => (Array.isArray(result?.messages) ? { kind: "messages", messages: result.messages } : { kind: "none" }),
	"deny-start": (_result, stopped) => (stopped ? { kind: "deny-start", reason: stopped } : { kind: "none" }),
	cancel: (result, stopped) =>
		result?.cancel === true ? { kind: "cancel", reason: stopped || "compaction cancelled by a hook" } : { kind: "none" },
};

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
