import { codexBridge, codexEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { CODEX } from "./protocol.ts";
import { outputAsText } from "../_shared/text.ts";
import type { AgentHookEntry } from "../_shared/entry.ts";
import {
	type AgentAnswer,
	promptOrStopDecision,
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
 * Codex CLI's command hooks (docs/agents/codex.md). Like Claude's, with Codex's own readings: exit 2
 * needs a reason on stderr, a PostToolUse `decision: "block"` (or exit 2) *replaces* the tool output
 * with its reason, `updatedInput` counts only with `permissionDecision: "allow"`. Everything Codex marks
 * "Failed" (and lets pass) is a failure here, which blocks a `tool_call`.
 */

function eventFields(_entry: AgentHookEntry, info: RunInfo): Json {
	const { event, call } = info;
	if (event.type === "tool_call") return { tool_name: call?.name, tool_input: call?.input, tool_use_id: event.toolCallId };
	if (event.type === "tool_result")
		return { tool_name: call?.name, tool_input: call?.input, tool_response: info.text ?? "", tool_use_id: event.toolCallId };
	if (event.type === "agent_end") return { stop_hook_active: false, last_assistant_message: lastAssistantText(event) };
	return lifecycle(event);
}

function exitTwo(entry: AgentHookEntry, stderr: string): AgentAnswer {
	if (!stderr) return { failure: "exited with code 2 but wrote no reason to stderr (Codex counts that as a failed hook)" };
	switch (entry.event) {
		case "PreToolUse":
			return { deny: stderr };
		case "PostToolUse":
			return { output: stderr };
		case "UserPromptSubmit":
			return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${stderr}` };
		case "Stop":
			return { continueWith: stderr };
		default:
			return { notice: stderr };
	}
}

function readJson(entry: AgentHookEntry, json: Json): AgentAnswer {
	const specific = json.hookSpecificOutput;
	if (specific !== undefined && !isObject(specific)) return { failure: "hookSpecificOutput must be an object" };
	const hso = specific ?? {};
	const answer: AgentAnswer = {};
	if (typeof json.systemMessage === "string") answer.notice = json.systemMessage;
	if (typeof hso.additionalContext === "string" && hso.additionalContext) answer.context = hso.additionalContext;
	switch (entry.event) {
		case "PreToolUse": {
			const reason = str(hso.permissionDecisionReason) ?? str(json.reason);
			if (hso.permissionDecision === "deny" || json.decision === "block" || json.continue === false)
				return { ...answer, deny: reason ?? str(json.stopReason) ?? "denied by a Codex hook (no reason given)" };
			if (hso.permissionDecision === "ask") return { ...answer, ask: reason ?? "a Codex hook asks for confirmation" };
			if (hso.updatedInput !== undefined) {
				if (hso.permissionDecision !== "allow") return { failure: "updatedInput without permissionDecision: allow" };
				if (!isObject(hso.updatedInput)) return { failure: "updatedInput must be an object" };
				answer.input = hso.updatedInput;
			} else if (hso.permissionDecision !== undefined && hso.permissionDecision !== "allow")
				return { failure: `unsupported permissionDecision ${JSON.stringify(hso.permissionDecision)}` };
			return answer;
		}
		case "PostToolUse":
			if (hso.updatedToolOutput !== undefined || hso.updatedMCPToolOutput !== undefined)
				return {
					failure:
						'Codex does not support replacing a tool output with updatedToolOutput; use decision: "block" with the new text as reason',
				};
			if (json.decision === "block") answer.output = str(json.reason) ?? "";
			return answer;
		case "UserPromptSubmit":
		case "Stop":
			return promptOrStopDecision(entry.event, json, answer);
		default:
			return answer;
	}
}

/** Codex CLI. */
export const codexDialect: Dialect = {
	agent: CODEX.name,
	events: hookTargets(codexEvents),
	label: "Codex",
	tools: codexBridge.tools,
	absolutePaths: false,
	matchMode: CODEX.matchMode,
	fires: () => true,
	subject(entry, info) {
		if (info.call) return info.call.name;
		if (entry.event === "SessionStart" || entry.event === "PreCompact") return Object.values(lifecycle(info.event))[0] as string;
		return undefined;
	},
	env: () => ({}), // Codex sets no project-dir variable: the hook runs in the session cwd
	payload: (entry, info) => ({
		session_id: info.sessionId,
		...(info.event.type === "session_start" ? {} : { turn_id: info.sessionId }),
		transcript_path: null,
		cwd: info.cwd,
		hook_event_name: entry.event,
		model: info.model ?? "unknown",
		permission_mode: "default",
		...eventFields(entry, info),
	}),
	read(entry, result) {
		if (result.code === 2) return exitTwo(entry, result.stderr.trim());
		if (result.code !== 0) return { failure: exitFailure(result) };
		const parsed = parseAnswer(result.stdout);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		if (parsed.json) return readJson(entry, parsed.json);
		if (parsed.text && (entry.event === "UserPromptSubmit" || entry.event === "SessionStart")) return { context: parsed.text };
		return {};
	},
	outputText: (_call, output) => outputAsText(output),
};
