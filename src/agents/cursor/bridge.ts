import { CURSOR } from "./protocol.ts";
import { askAsDeny, isRecord, nonEmpty, stringField } from "../_shared/answer.ts";
import { any, arr, nullable, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { fileRules, shellRule } from "../_shared/tools.ts";
import { splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * Cursor (docs/agents/cursor.md — not yet observed on the real client, unlike the other four):
 * `xcsh-hooks bridge cursor` in `.cursor/hooks.json`. Events are camelCase and carry `hook_event_name`.
 * Every answer is a JSON object, `{}` for "no opinion" (an empty stdout could count as invalid JSON
 * under `failClosed`); `permission: "allow"` is sent only with a rewrite, never as a bare opinion.
 *
 * - preToolUse, beforeShellExecution, beforeMCPExecution, beforeReadFile → `tool_call`; deny =
 *   `{permission: "deny", user_message, agent_message}`; a rewrite = `permission: "allow"` +
 *   `updated_input` (preToolUse only).
 * - postToolUse, postToolUseFailure, afterShellExecution, afterMCPExecution → `tool_result`; a
 *   replaced output is `updated_mcp_tool_output` for MCP tools.
 * - beforeSubmitPrompt → `before_agent_start`; sessionStart, sessionEnd, stop → `session_start`,
 *   `session_shutdown`, `agent_end`; preCompact → `session_before_compact`.
 *
 * Cannot: rewrite a call on the before* events (a rewrite there is a deny whose reason shows the
 * rewritten input, so nothing runs that the hook did not approve); replace the output of a non-MCP tool
 * (sent as `additional_context` beside the original, with a warning); add context to a prompt; cancel
 * a compaction. Its transcript is a text format, not read into `ctx.sessionManager`.
 */

const common: Shape = {
	hook_event_name: str,
	conversation_id: opt(str),
	generation_id: opt(str),
	workspace_roots: opt(arr),
	transcript_path: opt(nullable(str)),
	cwd: opt(str),
};

/** Cursor sends some tool inputs as JSON text. */
function inputObject(value: unknown): Record<string, unknown> {
	if (isRecord(value)) return value;
	if (typeof value === "string") {
		try {
			const parsed: unknown = JSON.parse(value);
			if (isRecord(parsed)) return parsed;
		} catch {
			// not JSON: handed over as it is
		}
		return { input: value };
	}
	return {};
}

const toolCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: inputObject(p.tool_input),
	id: stringField(p, "tool_use_id"),
	output: p.tool_output ?? p.result_json ?? p.error_message,
	isError: p.hook_event_name === "postToolUseFailure",
});

const shellCall = (p: Payload): AgentToolCall => ({
	name: "Shell",
	input: { command: p.command, ...(typeof p.cwd === "string" ? { working_directory: p.cwd } : {}) },
	output: p.output,
});

const tool = { tool_name: str, tool_input: any };

/** The subagent of a subagentStart/Stop payload; subagentStop names no id (`""`). */
const cursorSubagent = (p: Payload) =>
	subagentOf(p, SUBAGENT_FIELDS) ?? {
		id: "",
		...(stringField(p, "subagent_type") ? { type: stringField(p, "subagent_type") as string } : {}),
	};
const SUBAGENT_FIELDS = { id: ["subagent_id"], type: ["subagent_type"], parentId: ["parent_conversation_id"] };
const none: AgentEventSpec = { fields: common, to: null };

/** Cursor's hook events and what each becomes. */
export const cursorEvents: Record<string, AgentEventSpec> = {
	preToolUse: { fields: { ...common, tool_name: str, tool_input: obj(), tool_use_id: opt(str) }, to: "tool_call", call: toolCall },
	beforeShellExecution: { fields: { ...common, command: str }, to: "tool_call", call: shellCall },
	beforeMCPExecution: { fields: { ...common, ...tool }, to: "tool_call", call: toolCall },
	beforeReadFile: {
		fields: { ...common, file_path: str },
		to: "tool_call",
		call: (p) => ({ name: "Read", input: { file_path: p.file_path } }),
	},
	postToolUse: { fields: { ...common, ...tool, tool_output: opt(any) }, to: "tool_result", call: toolCall },
	postToolUseFailure: { fields: { ...common, ...tool, error_message: opt(str) }, to: "tool_result", call: toolCall },
	afterShellExecution: { fields: { ...common, command: str, output: opt(str) }, to: "tool_result", call: shellCall },
	afterMCPExecution: { fields: { ...common, ...tool, result_json: opt(any) }, to: "tool_result", call: toolCall },
	beforeSubmitPrompt: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	sessionStart: { fields: common, to: "session_start" },
	sessionEnd: { fields: common, to: "session_shutdown" },
	stop: { fields: common, to: "agent_end" },
	preCompact: {
		fields: { ...common, trigger: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" } }),
	},
	afterFileEdit: none,
	afterAgentResponse: none,
	afterAgentThought: none,
	subagentStart: {
		fields: { ...common, subagent_id: opt(str), subagent_type: opt(str), parent_conversation_id: opt(str) },
		to: "subagent_start",
		subagentEvent: (p) => ({ subagent: cursorSubagent(p) }),
	},
	subagentStop: {
		fields: { ...common, subagent_type: opt(str), summary: opt(str), agent_transcript_path: opt(nullable(str)) },
		to: "subagent_end",
		subagentEvent: (p) => ({
			subagent: cursorSubagent(p),
			lastMessage: stringField(p, "summary"),
			transcriptPath: stringField(p, "agent_transcript_path"),
		}),
	},
	beforeTabFileRead: none,
	afterTabFileEdit: none,
};

const isMcp = (name: string) => name.startsWith("MCP:") || name.startsWith("mcp_");

const deny = (reason: string) => {
	const text = nonEmpty(reason, "blocked by an xcsh hook");
	return { permission: "deny", user_message: text, agent_message: text };
};

function body(event: string, payload: Payload, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return deny(outcome.reason);
		case "ask":
			// Cursor's `permission: "ask"` is documented as not enforced on preToolUse (and reported broken elsewhere),
			// and no Cursor client could be run here to show otherwise: our deny, naming the ask.
			return deny(askAsDeny(outcome.reason, "Cursor"));
		case "rewrite":
			if (event === "preToolUse") return { permission: "allow", updated_input: outcome.input };
			return deny(`a hook rewrote this call, which Cursor's ${event} cannot apply; the rewritten input: ${JSON.stringify(outcome.input)}`);
		case "replace": {
			const call = cursorEvents[event]?.call?.(payload);
			if (outcome.text === undefined || !call) return {};
			if (event === "postToolUse" && isMcp(call.name)) {
				let parsed: unknown;
				try {
					parsed = JSON.parse(outcome.text);
				} catch {
					// plain text: wrapped as MCP text content below
				}
				return { updated_mcp_tool_output: isRecord(parsed) ? parsed : { content: [{ type: "text", text: outcome.text }] } };
			}
			warn(
				`cursor ${event}: Cursor replaces only MCP tool outputs; the hook's replacement was added as context beside the original output`,
			);
			return { additional_context: `A hook replaced the output of ${call.name} with:\n${outcome.text}` };
		}
		case "context":
			warn(`cursor ${event}: Cursor cannot add context to a prompt; the hook's message was dropped`);
			return {};
		case "cancel":
			warn(`cursor ${event}: Cursor cannot cancel a compaction; the hook's cancel was ignored`);
			return {};
		case "deny-start":
			// subagentStart takes `{permission, user_message}` (docs/agents/cursor.md): the subagent is not started.
			return { permission: "deny", user_message: nonEmpty(outcome.reason, "blocked by an xcsh hook") };
		case "messages": // no context event in this agent
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The Cursor bridge. */
export const cursorBridge: AgentBridge = {
	name: CURSOR.name,
	events: cursorEvents,
	tools: [shellRule("Shell"), ...fileRules({ read: "Read", write: "Write" })],
	timeoutSeconds: CURSOR.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs(payload, env) {
		const roots = (payload as { workspace_roots?: unknown }).workspace_roots;
		return [
			env[CURSOR.projectVariable],
			Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : undefined,
			stringField(payload, "cwd"),
		];
	},
	sessionId: (payload) => stringField(payload, "conversation_id") ?? stringField(payload, "session_id"),
	// Cursor names a subagent on its own events (`subagent_id`, `subagent_type`, `parent_conversation_id`).
	subagent: (payload) => subagentOf(payload, SUBAGENT_FIELDS),
	mcpTool(call, payload, event) {
		// preToolUse names MCP tools `MCP:<tool>` (its matcher form) or `mcp_<server>_<tool>`; the *MCPExecution
		// events are MCP calls whatever the name. Cursor's payloads name no server beside the tool: `""` then.
		const explicit = call.name.startsWith("MCP:");
		const name = explicit ? call.name.slice(4) : call.name;
		const split = splitPrefixed(name, "mcp_", "_");
		if (split) return split;
		if (!name || !(explicit || event === "beforeMCPExecution" || event === "afterMCPExecution")) return undefined;
		return { server: stringField(payload, "server_name") ?? "", tool: name };
	},
	outputText: (call) => outputAsText(call.output),
	answer: (event, payload, outcome, notes) => JSON.stringify(body(event, payload, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
