import { qwenBridge, qwenEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { QWEN } from "./protocol.ts";
import { readClaudeStyle, type ClaudeStyleRules } from "../_shared/claude-family.ts";
import { outputAsText } from "../_shared/text.ts";
import { type Dialect, type Json, lastAssistantText, lifecycle, type RunInfo } from "../_shared/dialect.ts";

/**
 * Qwen Code's own command hooks in our runner (docs/agents/qwen.md): Claude-style payloads with Gemini's
 * tool names and `tool_response: {llmContent, returnDisplay}`. Qwen honours `permissionDecision` and
 * top-level `decision: "deny" | "block"` on PreToolUse, ignores `updatedInput`, replaces a PostToolUse
 * output only with `continue: false` + `stopReason`, and appends `additionalContext`. It lets the call
 * run on a crash, a timeout, garbage or exit 2 without stderr; our runner counts those as failures.
 */
const RULES: ClaudeStyleRules = {
	label: QWEN.label,
	topLevelDecision: true,
	updatedInput: "ignored",
	postContinueFalse: "replace-output",
	exitTwoEmptyBlocks: false,
};

function eventFields(info: RunInfo): Json {
	const { event, call } = info;
	if (event.type === "tool_call") return { tool_name: call?.name, tool_input: call?.input, tool_use_id: event.toolCallId };
	if (event.type === "tool_result") {
		const text = info.text ?? "";
		return {
			tool_name: call?.name,
			tool_input: call?.input,
			tool_use_id: event.toolCallId,
			tool_response: { llmContent: text, returnDisplay: text, ...(event.isError ? { error: text } : {}) },
		};
	}
	if (event.type === "agent_end") return { stop_hook_active: false, last_assistant_message: lastAssistantText(event) };
	if (event.type === "session_before_compact") return { ...lifecycle(event), custom_instructions: event.customInstructions ?? "" };
	if (event.type === "before_agent_start") return { prompt: event.prompt, submitted_prompt: event.prompt };
	return lifecycle(event);
}

/** Qwen Code. */
export const qwenDialect: Dialect = {
	agent: QWEN.name,
	events: hookTargets(qwenEvents),
	label: QWEN.label,
	tools: qwenBridge.tools,
	absolutePaths: true,
	matchMode: QWEN.matchMode,
	fires(entry, info) {
		if (info.event.type !== "tool_result") return true;
		return (entry.event === "PostToolUseFailure") === info.event.isError;
	},
	subject(entry, info) {
		if (info.call) return info.call.name;
		if (entry.event === "SessionStart" || entry.event === "PreCompact") return Object.values(lifecycle(info.event))[0] as string;
		return undefined;
	},
	env: (info) => ({
		QWEN_PROJECT_DIR: info.cwd,
		CLAUDE_PROJECT_DIR: info.cwd,
		GEMINI_PROJECT_DIR: info.cwd,
		QWEN_CODE_SESSION_ID: info.sessionId,
	}),
	payload: (entry, info) => ({
		session_id: info.sessionId,
		cwd: info.cwd,
		hook_event_name: entry.event,
		timestamp: new Date().toISOString(),
		permission_mode: "default",
		...eventFields(info),
	}),
	read: (entry, result, info) => readClaudeStyle(RULES, entry, result, info.call?.input),
	outputText: (_call, output) => outputAsText(output),
};
