import { QWEN } from "./protocol.ts";
import {
	answerJson,
	askAsDeny,
	isRecord,
	nonEmpty,
	permissionAnswer,
	specificOutput,
	stringField,
	suggestionsOf,
} from "../_shared/answer.ts";
import { claudeStyleCall, claudeStyleCommon, claudeStyleDeny } from "../_shared/claude-family.ts";
import { any, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { fileRules, shellRule } from "../_shared/tools.ts";
import { splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, Outcome } from "../_shared/bridge-types.ts";

/**
 * Qwen Code (docs/agents/qwen.md): `xcsh-hooks bridge qwen` as a command hook. Claude Code's event names
 * and answers, Gemini CLI's tool names (`run_shell_command`, `read_file {file_path}`…) and output shape
 * (`tool_response.llmContent`).
 *
 * - PreToolUse → `tool_call`: deny = `hookSpecificOutput.permissionDecision: "deny"` + reason; an ask =
 *   `permissionDecision: "ask"` + reason (Qwen prompts; headless it denies with the reason).
 * - PermissionRequest → `permission_request`: `hookSpecificOutput.decision` `{behavior, message}`
 *   (documented; a headless run declines before it fires).
 * - PostToolUse → `tool_result`: a replaced output is `{continue: false, stopReason: text}`, the one
 *   answer Qwen puts in place of the output (the run goes on).
 * - UserPromptSubmit → `before_agent_start`: Qwen fires it before every model request, the later ones
 *   with `prompt: ""`; only the one with the user's prompt runs our hooks, so context arrives once.
 * - SessionStart / SessionEnd / Stop → `session_start` / `session_shutdown` / `agent_end`; PreCompact →
 *   `session_before_compact` (cancel = `decision: "block"`, documented, not observed).
 *
 * Cannot: apply a rewritten input (Qwen ignores `updatedInput` on PreToolUse; only a PermissionRequest
 * hook may rewrite, and headless runs never reach one), so a rewrite is answered as a deny naming the
 * rewrite — never the original call; replace only the raw output (`details`). SessionEnd does not fire headless.
 */

const common: Shape = { ...claudeStyleCommon, timestamp: opt(str) };
const none: AgentEventSpec = { fields: common, to: null };
const tool: Shape = { ...common, tool_name: str, tool_input: obj() };

/** Qwen Code's hook events and what each becomes. */
export const qwenEvents: Record<string, AgentEventSpec> = {
	PreToolUse: { fields: tool, to: "tool_call", call: claudeStyleCall },
	PostToolUse: { fields: { ...tool, tool_response: any }, to: "tool_result", call: claudeStyleCall },
	PostToolUseFailure: {
		fields: { ...tool, error: opt(str) },
		to: "tool_result",
		call: (p) => ({ ...claudeStyleCall(p), output: p.tool_response ?? stringField(p, "error") ?? "", isError: true }),
	},
	UserPromptSubmit: {
		fields: { ...common, prompt: str },
		to: "before_agent_start",
		prompt: (p) => p.prompt as string,
		skip: (p) => (p.prompt === "" ? "Qwen's repeat of UserPromptSubmit before a later model request (empty prompt)" : undefined),
	},
	SessionStart: { fields: common, to: "session_start" },
	SessionEnd: { fields: common, to: "session_shutdown" },
	Stop: { fields: common, to: "agent_end" },
	PreCompact: {
		fields: { ...common, trigger: opt(str), custom_instructions: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" }, customInstructions: stringField(p, "custom_instructions") }),
	},
	PermissionRequest: {
		fields: { ...tool, permission_suggestions: opt(any) },
		to: "permission_request",
		call: claudeStyleCall,
		suggestions: (p) => suggestionsOf(p.permission_suggestions),
	},
	PermissionDenied: none,
	PostToolBatch: none,
	Notification: none,
	SubagentStart: none,
	SubagentStop: none,
	StopFailure: none,
	PostCompact: none,
};

function body(event: string, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return event === "PermissionRequest" ? permissionAnswer("deny", outcome.reason) : claudeStyleDeny(outcome.reason);
		case "approve":
			return permissionAnswer("allow");
		case "ask":
			// Qwen's own ask (headless it denies). Qwen drops a rewrite on PreToolUse, so an ask about one is our deny.
			if (outcome.input !== undefined) return claudeStyleDeny(askAsDeny(`${outcome.reason} (about a rewritten call)`, "Qwen Code"));
			return specificOutput("PreToolUse", {
				permissionDecision: "ask",
				permissionDecisionReason: nonEmpty(outcome.reason, "a hook asks for confirmation"),
			});
		case "rewrite":
			warn("qwen PreToolUse: Qwen Code does not apply a rewritten input; the call is denied instead");
			return claudeStyleDeny(
				`xcsh-hooks: a hook rewrote this call to ${JSON.stringify(outcome.input)}; Qwen Code cannot run a rewritten call, so it was not run`,
			);
		case "replace":
			if (outcome.text === undefined) {
				warn(`qwen ${event}: only text can replace a tool output; the hook's replaced details were dropped`);
				return {};
			}
			return { continue: false, stopReason: nonEmpty(outcome.text, "(output removed by a hook)") };
		case "context":
			return specificOutput(event, { additionalContext: outcome.text });
		case "cancel":
			return { decision: "block", reason: outcome.reason };
		// No event of this agent becomes subagent_start, so nothing can be refused here.
		case "deny-start":
		case "messages": // no context event in this agent
		case "none":
			return {};
	}
}

/** The Qwen Code bridge. */
export const qwenBridge: AgentBridge = {
	name: QWEN.name,
	events: qwenEvents,
	tools: [shellRule("run_shell_command"), ...fileRules({ read: "read_file", write: "write_file", edit: "replace" })],
	timeoutSeconds: QWEN.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs: (payload, env) => [env[QWEN.projectVariable], stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "session_id"),
	transcript: (payload) => stringField(payload, "transcript_path"),
	// Measured in 0.24.4: an `agent` subagent's calls carry `agent_id` (`general-purpose-call_1`), no type
	// and no parent; the main agent's carry none.
	subagent: (payload) => subagentOf(payload, { id: ["agent_id"], type: ["agent_type"] }),
	// MCP tools are `mcp__<server>__<tool>` (Claude's form), with no server field beside them.
	mcpTool: (call) => splitPrefixed(call.name, "mcp__", "__"),
	outputText(call) {
		const output = call.output;
		if (!isRecord(output)) return outputAsText(output);
		if (typeof output.error === "string" && output.error) return output.error;
		return outputAsText(output.llmContent ?? output.returnDisplay);
	},
	answer: (event, _payload, outcome, notes) => answerJson(body(event, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(claudeStyleDeny(reason)),
};
