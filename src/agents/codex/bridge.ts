import { CODEX } from "./protocol.ts";
import { answerJson, askAsDeny, nonEmpty, permissionAnswer, specificOutput, stringField } from "../_shared/answer.ts";
import { any, nullable, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { shellRule } from "../_shared/tools.ts";
import { claudeStyleSubagentEvent, splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * OpenAI Codex CLI (docs/agents/codex.md): `xcsh-hooks bridge codex` as a command hook. Codex reads
 * answers against strict schemas: an unknown key, a deny without a reason or an `allow` without
 * `updatedInput` makes the hook "Failed", which lets the call run. So every answer here is exactly one
 * of the observed forms and nothing more.
 *
 * - PreToolUse → `tool_call` (the shell tool arrives as `Bash {command}`): deny =
 *   `hookSpecificOutput.permissionDecision: "deny"` + a non-empty reason; a rewrite =
 *   `permissionDecision: "allow"` + `updatedInput`, no other keys. An ask is a deny naming it: Codex
 *   reads `permissionDecision: "ask"` as a failed hook and runs the call.
 * - PermissionRequest → `permission_request`: `hookSpecificOutput.decision` `{behavior, message}`.
 * - PostToolUse → `tool_result`: a replaced output is `decision: "block"` with the text as `reason`,
 *   which Codex gives the model verbatim in place of the output.
 * - UserPromptSubmit → `before_agent_start` (`additionalContext`); SessionStart, SessionEnd, Stop →
 *   `session_start`, `session_shutdown`, `agent_end`; PreCompact → `session_before_compact`.
 *
 * Cannot: replace only the raw output (`details`) — Codex takes text; cancel a compaction (PreCompact
 * is observe-only); show hook notifications to the user (they go to stderr, which `codex exec` does not
 * print); rewrite anything but the whole `{command}` of `Bash`/`apply_patch` and MCP arguments.
 */

const common: Shape = {
	session_id: str,
	hook_event_name: str,
	cwd: str,
	transcript_path: opt(nullable(str)),
	model: opt(str),
	turn_id: opt(str),
};

const toolCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: p.tool_input as Record<string, unknown>,
	id: stringField(p, "tool_use_id"),
	output: p.tool_response,
});

const none: AgentEventSpec = { fields: common, to: null };

/** Codex's hook events and what each becomes. */
export const codexEvents: Record<string, AgentEventSpec> = {
	PreToolUse: { fields: { ...common, tool_name: str, tool_input: obj(), tool_use_id: opt(str) }, to: "tool_call", call: toolCall },
	PostToolUse: {
		fields: { ...common, tool_name: str, tool_input: obj(), tool_response: any, tool_use_id: opt(str) },
		to: "tool_result",
		call: toolCall,
	},
	UserPromptSubmit: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	SessionStart: { fields: common, to: "session_start" },
	SessionEnd: { fields: common, to: "session_shutdown" },
	Stop: { fields: common, to: "agent_end" },
	PreCompact: {
		fields: { ...common, trigger: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" } }),
	},
	PermissionRequest: { fields: { ...common, tool_name: str, tool_input: obj() }, to: "permission_request", call: toolCall },
	PostCompact: none,
	PreModelRequest: none,
	SubagentStart: { fields: { ...common, agent_id: str, agent_type: opt(str) }, to: "subagent_start" },
	SubagentStop: {
		fields: {
			...common,
			agent_id: str,
			agent_type: opt(str),
			agent_transcript_path: opt(nullable(str)),
			last_assistant_message: opt(nullable(str)),
		},
		to: "subagent_end",
		subagentEvent: (p) => claudeStyleSubagentEvent(p, codexBridge.subagent?.(p)),
	},
	StopFailure: none,
	Interrupt: none,
};

const deny = (reason: string) =>
	specificOutput("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(event: string, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return event === "PermissionRequest" ? permissionAnswer("deny", outcome.reason) : deny(outcome.reason);
		case "approve":
			return permissionAnswer("allow");
		case "ask":
			// Codex 0.169 reads `ask` as a failed hook and runs the call: our deny, naming the ask.
			return deny(askAsDeny(outcome.reason, "Codex"));
		case "rewrite":
			return specificOutput("PreToolUse", { permissionDecision: "allow", updatedInput: outcome.input });
		case "replace":
			if (outcome.text === undefined) {
				warn("codex PostToolUse: only text can replace a tool output; the hook's replaced details were dropped");
				return {};
			}
			return { decision: "block", reason: nonEmpty(outcome.text, "(output removed by a hook)") };
		case "context":
			return specificOutput(event, { additionalContext: outcome.text });
		case "cancel":
			warn(`codex ${event}: Codex cannot cancel a compaction; the hook's cancel was ignored`);
			return {};
		case "deny-start":
			warn(`codex ${event}: Codex cannot be told not to start a subagent; the hook's block was ignored`);
			return {};
		case "messages": // no context event in this agent
		case "none":
			return {};
	}
}

/** The Codex CLI bridge. */
export const codexBridge: AgentBridge = {
	name: CODEX.name,
	events: codexEvents,
	tools: [shellRule("Bash")],
	timeoutSeconds: CODEX.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	// Codex sets no project-dir variable: the hook runs in the session cwd, which the payload names.
	projectDirs: (payload) => [stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "session_id"),
	transcript: (payload) => stringField(payload, "transcript_path"),
	// Inside a subagent (`spawn_agent`) payloads carry `agent_id` and `agent_type`.
	subagent: (payload) => subagentOf(payload, { id: ["agent_id"], type: ["agent_type"] }),
	// MCP tools reach hooks as `mcp__<server>__<tool>`, with their raw arguments.
	mcpTool: (call) => splitPrefixed(call.name, "mcp__", "__"),
	// The reader is loaded only when a hook reads the session.
	readTranscript: (text) => (require("./transcript.ts") as typeof import("./transcript.ts")).readCodexTranscript(text),
	outputText: (call) => outputAsText(call.output),
	answer: (event, _payload, outcome, notes) => answerJson(body(event, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
