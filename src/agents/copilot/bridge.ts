import { COPILOT } from "./protocol.ts";
import { answerJson, askAsDeny, isRecord, nonEmpty, stringField, suggestionsOf } from "../_shared/answer.ts";
import { any, num, obj, oneOf, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { shellRule } from "../_shared/tools.ts";
import { claudeStyleSubagentEvent, splitLast, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * GitHub Copilot CLI (docs/agents/copilot.md): `xcsh-hooks bridge copilot` in `.github/hooks/*.json`.
 * Copilot has two event spellings with two payloads: camelCase (`preToolUse`: `sessionId`, `toolName`,
 * `toolArgs`, epoch-ms `timestamp`, and **no event name** — register those with `--event preToolUse`;
 * without it the event is recognised by its fields) and PascalCase (`PreToolUse`: Claude-style
 * `hook_event_name`, `tool_name`, `tool_input`, `tool_result`). Both honour the flat answer fields used here.
 *
 * - preToolUse / PreToolUse → `tool_call`: deny = `{permissionDecision: "deny", permissionDecisionReason}`;
 *   a rewrite = `{modifiedArgs}` (the whole arguments; no `allow`, which Copilot does not need); an ask =
 *   `{permissionDecision: "ask", permissionDecisionReason}` (denied by Copilot itself in `-p` mode).
 * - permissionRequest / PermissionRequest → `permission_request` (camelCase payload under both keys, named
 *   by `hookName`): `{behavior: "allow" | "deny", message}`.
 * - postToolUse / PostToolUse → `tool_result`: a replaced output is
 *   `{modifiedResult: {resultType, textResultForLlm}}`, given to the model verbatim.
 * - userPromptSubmitted / UserPromptSubmit → `before_agent_start` (`additionalContext`, appended to the
 *   prompt); sessionStart, sessionEnd, agentStop/Stop → `session_start`, `session_shutdown`,
 *   `agent_end`; preCompact → `session_before_compact`.
 *
 * Cannot: cancel a compaction; replace only the raw output (`details`); map `view`/`create`/`edit` to
 * the built-in file tools (their fields differ; they keep their own names). Copilot lets a call run when
 * a hook times out, so the bridge answers by itself before Copilot's 30 s default.
 */

const camel: Shape = { sessionId: opt(str), timestamp: opt(num), cwd: str };
const pascal: Shape = { hook_event_name: str, session_id: opt(str), timestamp: opt(str), cwd: str };
const args = oneOf(obj(), str);

/** `toolArgs` was a JSON string in older Copilot versions, an object in 1.0.102. */
function argsObject(value: unknown): Record<string, unknown> {
	if (isRecord(value)) return value;
	try {
		const parsed: unknown = JSON.parse(String(value));
		if (isRecord(parsed)) return parsed;
	} catch {
		// not JSON: handed to hooks as it is
	}
	return { args: value };
}

const camelCall = (p: Payload): AgentToolCall => ({
	name: p.toolName as string,
	input: argsObject(p.toolArgs),
	output: p.toolResult ?? p.error,
	isError: p.error !== undefined,
});

const pascalCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: argsObject(p.tool_input),
	output: p.tool_result ?? p.error,
	isError: p.hook_event_name === "PostToolUseFailure",
});

const compaction = (p: Payload) => ({ preparation: { trigger: p.trigger ?? "auto" } });

/** Copilot CLI's hook events, both spellings, and what each becomes. */
export const copilotEvents: Record<string, AgentEventSpec> = {
	preToolUse: { fields: { ...camel, toolName: str, toolArgs: args }, to: "tool_call", call: camelCall },
	postToolUse: { fields: { ...camel, toolName: str, toolArgs: args, toolResult: obj() }, to: "tool_result", call: camelCall },
	postToolUseFailure: { fields: { ...camel, toolName: str, toolArgs: args }, to: "tool_result", call: camelCall },
	userPromptSubmitted: { fields: { ...camel, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	sessionStart: { fields: camel, to: "session_start" },
	sessionEnd: { fields: camel, to: "session_shutdown" },
	agentStop: { fields: camel, to: "agent_end" },
	preCompact: { fields: camel, to: "session_before_compact", compaction },
	PreToolUse: { fields: { ...pascal, tool_name: str, tool_input: args }, to: "tool_call", call: pascalCall },
	PostToolUse: { fields: { ...pascal, tool_name: str, tool_input: args, tool_result: obj() }, to: "tool_result", call: pascalCall },
	PostToolUseFailure: { fields: { ...pascal, tool_name: str, tool_input: args }, to: "tool_result", call: pascalCall },
	UserPromptSubmit: { fields: { ...pascal, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	SessionStart: { fields: pascal, to: "session_start" },
	SessionEnd: { fields: pascal, to: "session_shutdown" },
	Stop: { fields: pascal, to: "agent_end" },
	PreCompact: { fields: pascal, to: "session_before_compact", compaction },
	// Measured in 1.0.102: subagentStart `{sessionId, timestamp, transcriptPath, agentName, agentId, agentType,
	// parentAgentId}`; SubagentStart the same with `agent_id`, `agent_type`, `parent_agent_id` and still **no
	// event name** (epoch-ms timestamp); subagentStop adds `response` (the last message) and `stopReason`;
	// SubagentStop is Claude-style (`hook_event_name`, `last_assistant_message`).
	subagentStart: { fields: { ...camel, agentId: str }, to: "subagent_start" },
	subagentStop: {
		fields: { ...camel, agentId: str, response: opt(str) },
		to: "subagent_end",
		subagentEvent: (p) => {
			const said = claudeStyleSubagentEvent(p, copilotBridge.subagent?.(p));
			return said && { ...said, lastMessage: said.lastMessage ?? stringField(p, "response") };
		},
	},
	SubagentStart: { fields: { ...camel, agent_id: str }, to: "subagent_start" },
	// Fires after preToolUse passed, even with --allow-all-tools (observed in 1.0.102); its payload is camelCase under either key.
	permissionRequest: {
		fields: { ...camel, toolName: str, toolInput: args, permissionSuggestions: opt(any) },
		to: "permission_request",
		call: (p) => ({ name: p.toolName as string, input: argsObject(p.toolInput) }),
		suggestions: (p) => suggestionsOf(p.permissionSuggestions),
	},
	SubagentStop: {
		fields: { ...pascal, agent_id: str, last_assistant_message: opt(str) },
		to: "subagent_end",
		subagentEvent: (p) => claudeStyleSubagentEvent(p, copilotBridge.subagent?.(p)),
	},
};
copilotEvents.PermissionRequest = copilotEvents.permissionRequest as AgentEventSpec;
// Fired too, without a counterpart.
for (const name of [
	"userPromptTransformed",
	"notification",
	"Notification",
	"errorOccurred",
	"ErrorOccurred",
	"preMcpToolCall",
	"PreMcpToolCall",
])
	copilotEvents[name] = { fields: {}, to: null };

/** The camelCase event a payload without an event name is, by the fields only that event carries. */
function sniff(p: Record<string, unknown>): string | undefined {
	// A subagent's start and stop name it and carry no tool or prompt; its own calls are sniffed as usual.
	const named = p.agentId !== undefined ? "camel" : p.agent_id !== undefined ? "snake" : undefined;
	if (named && p.toolName === undefined && p.prompt === undefined) {
		if (p.stopReason !== undefined || p.response !== undefined) return named === "camel" ? "subagentStop" : "SubagentStop";
		if (p.agentName !== undefined || p.agentType !== undefined || p.agent_type !== undefined)
			return named === "camel" ? "subagentStart" : "SubagentStart";
	}
	if (p.toolResult !== undefined) return "postToolUse";
	if (p.toolArgs !== undefined) return "preToolUse";
	if (p.transformedPrompt !== undefined) return "userPromptTransformed";
	if (p.prompt !== undefined) return "userPromptSubmitted";
	if (p.initialPrompt !== undefined || p.source !== undefined) return "sessionStart";
	if (p.stopReason !== undefined || p.transcriptPath !== undefined) return "agentStop";
	if (p.error !== undefined) return "errorOccurred";
	if (p.reason !== undefined) return "sessionEnd";
	return undefined;
}

const deny = (reason: string) => ({ permissionDecision: "deny", permissionDecisionReason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(event: string, payload: Payload, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return event === "permissionRequest" || event === "PermissionRequest"
				? { behavior: "deny", message: nonEmpty(outcome.reason, "denied by an xcsh hook") }
				: deny(outcome.reason);
		case "approve":
			return { behavior: "allow" };
		case "ask":
			// Copilot's own ask (in `-p` it denies: "unable to ask user for confirmation"). With a rewrite it is our
			// deny: whether Copilot applies `modifiedArgs` to a call it asks about is not known.
			if (outcome.input !== undefined) return deny(askAsDeny(`${outcome.reason} (about a rewritten call)`, "Copilot CLI"));
			return { permissionDecision: "ask", permissionDecisionReason: nonEmpty(outcome.reason, "a hook asks for confirmation") };
		case "rewrite":
			return { modifiedArgs: outcome.input };
		case "replace": {
			if (outcome.text === undefined) {
				warn(`copilot ${event}: only text can replace a tool output; the hook's replaced details were dropped`);
				return {};
			}
			const result = payload.toolResult ?? payload.tool_result;
			const resultType = isRecord(result) ? (result.resultType ?? result.result_type) : undefined;
			return { modifiedResult: { resultType: typeof resultType === "string" ? resultType : "success", textResultForLlm: outcome.text } };
		}
		case "context":
			return { additionalContext: outcome.text };
		case "cancel":
			warn(`copilot ${event}: Copilot cannot cancel a compaction; the hook's cancel was ignored`);
			return {};
		case "deny-start":
			warn(`copilot ${event}: Copilot cannot be told not to start a subagent; the hook's block was ignored`);
			return {};
		case "messages": // no context event in this agent
		case "none":
			return {};
	}
}

/** The GitHub Copilot CLI bridge. */
export const copilotBridge: AgentBridge = {
	name: COPILOT.name,
	events: copilotEvents,
	tools: [shellRule("bash"), shellRule("Bash")],
	timeoutSeconds: COPILOT.timeoutSeconds,
	eventName(payload, hint) {
		if (hint) return hint;
		if (!isRecord(payload)) return undefined;
		return stringField(payload, "hook_event_name") ?? stringField(payload, "hookName") ?? sniff(payload);
	},
	// camelCase payloads state no event: their fields only suggest one, which a `?event=` may name.
	payloadEvent: (payload) => stringField(payload, "hook_event_name") ?? stringField(payload, "hookName"),
	projectDirs: (payload, env) => [env[COPILOT.projectVariable], stringField(payload, "cwd")],
	// Measured in 1.0.102: a subagent's own calls carry `sessionId` = its `agentId`, and `parentAgentId` =
	// the session that started it. That session's id keeps one session file per top-level session, so a
	// hook's counters do not split between the agent and its subagents. (A subagent's subagent would get
	// its parent's id: one level, which is what Copilot's `task` starts.)
	sessionId(payload) {
		const own = stringField(payload, "sessionId") ?? stringField(payload, "session_id");
		const agentId = stringField(payload, "agentId") ?? stringField(payload, "agent_id");
		const parent = stringField(payload, "parentAgentId") ?? stringField(payload, "parent_agent_id");
		return own !== undefined && own === agentId && parent ? parent : own;
	},
	// Inside a subagent (`task`) both spellings name it, and the agent that started it.
	subagent: (payload) =>
		subagentOf(payload, {
			id: ["agent_id", "agentId"],
			type: ["agent_type", "agentType"],
			parentId: ["parent_agent_id", "parentAgentId"],
		}),
	// MCP tools are `<server>-<tool>` (no built-in tool has a `-`); a server name may hold `-`, a tool name not.
	mcpTool: (call) => (call.name.includes("-") ? splitLast(call.name, "-") : undefined),
	outputText(call) {
		const output = call.output;
		if (isRecord(output)) {
			const text = output.textResultForLlm ?? output.text_result_for_llm;
			if (typeof text === "string") return text;
		}
		return outputAsText(isRecord(output) && typeof output.message === "string" ? output.message : output);
	},
	answer: (event, payload, outcome, notes) => answerJson(body(event, payload, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
