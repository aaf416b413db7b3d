import { geminiBridge, geminiEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { GEMINI } from "./protocol.ts";
import { outputAsText } from "../_shared/text.ts";
import type { ExecResult } from "../../exec/exec-command.ts";
import type { AgentHookEntry } from "../_shared/entry.ts";
import {
	type AgentAnswer,
	type Dialect,
	isObject,
	type Json,
	lastAssistantText,
	lifecycle,
	type RunInfo,
	str,
} from "../_shared/dialect.ts";

/**
 * Gemini CLI's command hooks (docs/agents/gemini.md). The answer is JSON on stdout (stderr when stdout
 * is empty; a JSON-encoded string is read twice). Text that is not JSON: exit 0 is a message for the
 * user, exit 2 or more blocks with the text as reason; exit 1 is a warning, which Gemini lets pass and
 * we count as a failure. `decision: "deny" | "block"` blocks BeforeTool and replaces AfterTool's output;
 * `hookSpecificOutput.tool_input` is merged over the call's arguments (the documented rule; 0.61's
 * scheduler replaces them — a hook that sends complete arguments gets the same call either way).
 */

function eventFields(_entry: AgentHookEntry, info: RunInfo): Json {
	const { event, call } = info;
	if (event.type === "tool_call") return { tool_name: call?.name, tool_input: call?.input };
	if (event.type === "tool_result") {
		const text = info.text ?? "";
		return {
			tool_name: call?.name,
			tool_input: call?.input,
			tool_response: { llmContent: text, returnDisplay: text, ...(event.isError ? { error: text } : {}) },
		};
	}
	if (event.type === "agent_end") return { prompt: "", prompt_response: lastAssistantText(event), stop_hook_active: false };
	if (event.type === "session_shutdown") return { reason: "exit" };
	return lifecycle(event);
}

/** Gemini's answer text: stdout, else stderr; a JSON string holding JSON is unwrapped. */
function answerOf(result: ExecResult): { json?: Json; text: string; invalid?: string } {
	const text = result.stdout.trim() || result.stderr.trim();
	if (!text) return { text };
	let value: unknown;
	try {
		value = JSON.parse(text);
		if (typeof value === "string") value = JSON.parse(value);
	} catch {
		return text.startsWith("{") ? { text, invalid: "invalid JSON" } : { text };
	}
	return isObject(value) ? { json: value, text } : { text };
}

function fromText(entry: AgentHookEntry, code: number, text: string): AgentAnswer {
	if (code === 0) return text ? { notice: text } : {};
	if (!text) return { failure: `exited with code ${code} without output` };
	if (code === 1) return { failure: `exited with code 1 (a warning in Gemini CLI): ${text}` };
	switch (entry.event) {
		case "BeforeTool":
			return { deny: text };
		case "AfterTool":
			return { output: text };
		case "BeforeAgent":
			return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${text}` };
		case "AfterAgent":
			return { continueWith: text };
		default:
			return { notice: text };
	}
}

function readJson(entry: AgentHookEntry, json: Json, info: RunInfo): AgentAnswer {
	const specific = json.hookSpecificOutput;
	if (specific !== undefined && !isObject(specific)) return { failure: "hookSpecificOutput must be an object" };
	const hso = specific ?? {};
	const answer: AgentAnswer = {};
	if (typeof json.systemMessage === "string") answer.notice = json.systemMessage;
	const context = str(hso.additionalContext);
	const reason = str(json.reason);
	const denied = json.decision === "deny" || json.decision === "block";
	switch (entry.event) {
		case "BeforeTool":
			if (denied) return { ...answer, deny: reason ?? "denied by a Gemini CLI hook" };
			if (json.continue === false) return { ...answer, deny: str(json.stopReason) ?? "a Gemini CLI hook stopped the agent" };
			if (json.decision === "ask") return { ...answer, ask: reason ?? "a Gemini CLI hook asks for confirmation" };
			if (hso.tool_input !== undefined) {
				if (!isObject(hso.tool_input)) return { failure: "hookSpecificOutput.tool_input must be an object" };
				answer.input = { ...info.call?.input, ...hso.tool_input };
			}
			if (context) answer.context = context;
			return answer;
		case "AfterTool":
			if (denied) answer.output = reason ?? "";
			if (context) answer.appendText = context; // Gemini appends it to the tool's output
			if (hso.tailToolCallRequest !== undefined) answer.notice = "tailToolCallRequest is not supported by xcsh-hooks; ignored";
			return answer;
		case "BeforeAgent":
			if (denied) return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${reason ?? ""}` };
			if (context) answer.context = context;
			return answer;
		case "AfterAgent":
			if (denied) answer.continueWith = reason ?? "continue";
			return answer;
		default:
			if (context) answer.context = context;
			return answer;
	}
}

/** Gemini CLI. */
export const geminiDialect: Dialect = {
	agent: GEMINI.name,
	events: hookTargets(geminiEvents),
	label: "Gemini CLI",
	tools: geminiBridge.tools,
	absolutePaths: false,
	matchMode: GEMINI.matchMode,
	fires: () => true,
	subject(entry, info) {
		if (info.call) return info.call.name;
		if (entry.event === "SessionStart" || entry.event === "PreCompress") return Object.values(lifecycle(info.event))[0] as string;
		return undefined;
	},
	env: (info) => ({
		GEMINI_PROJECT_DIR: info.cwd,
		GEMINI_CWD: info.cwd,
		GEMINI_SESSION_ID: info.sessionId,
		CLAUDE_PROJECT_DIR: info.cwd,
	}),
	payload: (entry, info) => ({
		session_id: info.sessionId,
		cwd: info.cwd,
		hook_event_name: entry.event,
		timestamp: new Date().toISOString(),
		...eventFields(entry, info),
	}),
	read(entry, result, info) {
		const parsed = answerOf(result);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		if (parsed.json) return readJson(entry, parsed.json, info); // JSON is used whatever the exit code
		return fromText(entry, result.code, parsed.text);
	},
	outputText: (_call, output) => outputAsText(output),
};
