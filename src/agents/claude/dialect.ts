import { claudeBridge, claudeEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { CLAUDE } from "./protocol.ts";
import type { ExecResult } from "../../exec/exec-command.ts";
import type { AgentHookEntry } from "../_shared/entry.ts";
import {
	type AgentAnswer,
	promptOrStopDecision,
	type AgentCall,
	type Dialect,
	exitFailure,
	isObject,
	type Json,
	lastAssistantText,
	lifecycle,
	parseAnswer,
	type RunInfo,
	str,
} from "../_shared/dialect.ts";

/**
 * Claude Code's command hooks (docs/agents/claude.md). Exit 2 blocks with stderr as the reason;
 * exit 0 answers with JSON (`hookSpecificOutput.permissionDecision`, `updatedInput`, `additionalContext`,
 * `updatedToolOutput`, top-level `decision: "block"`, `continue: false`). Any other code, a timeout or
 * JSON Claude would reject is a failure, which Claude lets pass and we do not (on `tool_call`).
 */

/** Our tool's output in the shape Claude gives a PostToolUse hook as `tool_response`. */
function toolResponse(call: AgentCall, text: string): unknown {
	const input = call.input;
	switch (call.name) {
		case "Bash":
			return { stdout: text, stderr: "", interrupted: false, isImage: false };
		case "Read": {
			const lines = text === "" ? 0 : text.split("\n").length;
			return {
				type: "text",
				file: { filePath: input.file_path, content: text, numLines: lines, startLine: input.offset ?? 1, totalLines: lines },
			};
		}
		case "Write":
			return { type: "create", filePath: input.file_path, content: input.content };
		case "Edit":
			return { filePath: input.file_path, oldString: input.old_string, newString: input.new_string, replaceAll: false };
		default:
			return text;
	}
}

/** The event-specific part of the payload. */
function eventFields(entry: AgentHookEntry, info: RunInfo): Json {
	const { event, call } = info;
	if (event.type === "tool_call") return { tool_name: call?.name, tool_input: call?.input, tool_use_id: event.toolCallId };
	if (event.type === "tool_result") {
		const base = { tool_name: call?.name, tool_input: call?.input, tool_use_id: event.toolCallId };
		if (entry.event === "PostToolUseFailure") return { ...base, error: info.text ?? "", is_interrupt: false };
		return { ...base, tool_response: toolResponse(call as AgentCall, info.text ?? "") };
	}
	if (event.type === "agent_end") return { stop_hook_active: false, last_assistant_message: lastAssistantText(event) };
	if (event.type === "session_shutdown") return { reason: "other" };
	if (event.type === "session_before_compact") return { ...lifecycle(event), custom_instructions: event.customInstructions ?? "" };
	return lifecycle(event);
}

/** Exit 2: Claude feeds stderr back, and what that does depends on the event. */
function exitTwo(entry: AgentHookEntry, stderr: string): AgentAnswer {
	const reason = stderr || `blocked by ${entry.command}`;
	switch (entry.event) {
		case "PreToolUse":
			return { deny: reason };
		case "PostToolUse":
		case "PostToolUseFailure":
			return { context: reason }; // shown to the model beside the (already produced) output
		case "UserPromptSubmit":
			return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${reason}` };
		case "Stop":
			return { continueWith: reason };
		case "PreCompact":
			return { cancel: reason };
		default:
			return { notice: reason };
	}
}

function readJson(entry: AgentHookEntry, json: Json): AgentAnswer {
	const answer: AgentAnswer = {};
	if (typeof json.systemMessage === "string") answer.notice = json.systemMessage;
	const specific = json.hookSpecificOutput;
	if (specific !== undefined && !isObject(specific)) return { failure: "hookSpecificOutput must be an object" };
	const hso = specific ?? {};
	const reason = str(hso.permissionDecisionReason) ?? str(json.reason);
	if (typeof hso.additionalContext === "string" && hso.additionalContext) answer.context = hso.additionalContext;
	if (json.continue === false) {
		const why = str(json.stopReason) ?? "a hook stopped the agent";
		if (entry.event === "PreToolUse") return { ...answer, deny: why };
		answer.notice = answer.notice ? `${answer.notice}\n${why}` : why;
	}
	switch (entry.event) {
		case "PreToolUse": {
			const legacy = json.decision === "block" ? "deny" : json.decision === "approve" ? "allow" : undefined;
			const decision = hso.permissionDecision ?? legacy;
			if (decision === "deny") return { ...answer, deny: reason ?? "denied by a Claude Code hook" };
			if (decision === "ask") return { ...answer, ask: reason ?? "a Claude Code hook asks for confirmation" };
			if (decision !== undefined && decision !== "allow" && decision !== "defer")
				return { failure: `permissionDecision must be allow, deny, ask or defer, got ${JSON.stringify(decision)}` };
			if (hso.updatedInput !== undefined) {
				if (!isObject(hso.updatedInput)) return { failure: "updatedInput must be an object" };
				answer.input = hso.updatedInput;
			}
			return answer;
		}
		case "PostToolUse":
		case "PostToolUseFailure": {
			if (json.decision === "block") answer.context = [str(json.reason), answer.context].filter(Boolean).join("\n") || undefined;
			const updated = hso.updatedToolOutput ?? hso.updatedMCPToolOutput;
			if (updated !== undefined && entry.event === "PostToolUse") answer.output = updated;
			return answer;
		}
		case "UserPromptSubmit":
		case "Stop":
			return promptOrStopDecision(entry.event, json, answer);
		case "PreCompact":
			if (json.decision === "block") answer.cancel = str(json.reason) ?? "compaction blocked by a Claude Code hook";
			return answer;
		default:
			return answer;
	}
}

/** Claude Code. */
export const claudeDialect: Dialect = {
	agent: CLAUDE.name,
	events: hookTargets(claudeEvents),
	label: "Claude Code",
	tools: claudeBridge.tools,
	absolutePaths: true,
	matchMode: CLAUDE.matchMode,
	fires(entry, info) {
		if (info.event.type !== "tool_result") return true;
		return (entry.event === "PostToolUseFailure") === info.event.isError;
	},
	subject(entry, info) {
		if (info.call) return info.call.name;
		if (entry.event === "SessionStart" || entry.event === "PreCompact") return Object.values(lifecycle(info.event))[0] as string;
		return undefined;
	},
	env: (info) => ({ CLAUDE_PROJECT_DIR: info.cwd, CLAUDE_CODE_SESSION_ID: info.sessionId }),
	payload: (entry, info) => ({
		session_id: info.sessionId,
		cwd: info.cwd,
		permission_mode: "default",
		hook_event_name: entry.event,
		...eventFields(entry, info),
	}),
	read(entry, result: ExecResult) {
		if (result.code === 2) return exitTwo(entry, result.stderr.trim());
		if (result.code !== 0) return { failure: exitFailure(result) };
		const parsed = parseAnswer(result.stdout);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		if (parsed.json) return readJson(entry, parsed.json);
		// Plain stdout reaches the model only on UserPromptSubmit and SessionStart.
		if (parsed.text && (entry.event === "UserPromptSubmit" || entry.event === "SessionStart")) return { context: parsed.text };
		return {};
	},
	outputText: (call, output) => claudeBridge.outputText({ name: call.name, input: call.input, output }),
};
