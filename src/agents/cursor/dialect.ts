import { resolve } from "pathe";
import { cursorBridge, cursorEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { CURSOR } from "./protocol.ts";
import { outputAsText } from "../_shared/text.ts";
import { readBoundedText } from "../../fs/read-bounded.ts";
import type { AgentHookEntry } from "../_shared/entry.ts";
import {
	type AgentAnswer,
	type Dialect,
	exitFailure,
	isObject,
	type Json,
	lifecycle,
	parseAnswer,
	type RunInfo,
	str,
} from "../_shared/dialect.ts";

/**
 * Cursor's command hooks (docs/agents/cursor.md; not observed on the real client). Exit 2 denies; exit 0
 * answers with JSON (`permission`, `updated_input`, `agent_message`/`user_message`,
 * `additional_context`, `followup_message`). Any other exit, a timeout or stdout that is not JSON is a
 * failure: what Cursor's `failClosed: true` does, and what we always do on `tool_call`.
 */

const READ_CAP = 1024 * 1024;
const isMcp = (name: string) => name.startsWith("MCP:") || name.startsWith("mcp_");

/** The first READ_CAP bytes of the file a read names; "" for a FIFO, a device or a directory, so they never block the call. */
function fileContent(path: unknown, cwd: string): string {
	if (typeof path !== "string") return "";
	const read = readBoundedText(resolve(cwd, path), { maxBytes: READ_CAP, partial: true });
	return read.ok ? read.text : "";
}

function eventFields(entry: AgentHookEntry, info: RunInfo): Json {
	const { event, call, cwd } = info;
	const input = call?.input ?? {};
	const text = info.text ?? "";
	switch (entry.event) {
		case "preToolUse":
			return {
				tool_name: call?.name,
				tool_input: call?.name === "Shell" ? { ...input, working_directory: cwd } : input,
				tool_use_id: (event as { toolCallId?: string }).toolCallId,
				cwd,
				agent_message: "",
			};
		case "beforeShellExecution":
			return { command: input.command, cwd, sandbox: false };
		case "beforeReadFile":
			return { file_path: input.file_path, content: fileContent(input.file_path, cwd), attachments: [] };
		case "postToolUse":
			return {
				tool_name: call?.name,
				tool_input: input,
				tool_output: JSON.stringify({ output: text }),
				tool_use_id: (event as { toolCallId?: string }).toolCallId,
				cwd,
				duration: 0,
			};
		case "postToolUseFailure":
			return {
				tool_name: call?.name,
				tool_input: input,
				tool_use_id: (event as { toolCallId?: string }).toolCallId,
				cwd,
				error_message: text,
				failure_type: "error",
				duration: 0,
				is_interrupt: false,
			};
		case "afterShellExecution":
			return { command: input.command, output: text, duration: 0, sandbox: false };
		case "afterFileEdit":
			return {
				file_path: input.file_path ?? input.path,
				edits: [
					call?.name === "Write"
						? { old_string: "", new_string: input.content ?? "" }
						: { old_string: input.oldText ?? "", new_string: input.newText ?? "" },
				],
			};
		case "beforeSubmitPrompt":
			return { prompt: (event as { prompt?: string }).prompt ?? "", attachments: [] };
		case "stop":
			return { status: "completed", loop_count: 0 };
		case "sessionStart":
			return { session_id: info.sessionId, is_background_agent: false, composer_mode: "agent" };
		case "sessionEnd":
			return { session_id: info.sessionId, reason: "completed", duration_ms: 0, is_background_agent: false, final_status: "completed" };
		default:
			return lifecycle(event);
	}
}

const GATES = new Set(["preToolUse", "beforeShellExecution", "beforeReadFile"]);

function readJson(entry: AgentHookEntry, json: Json, info: RunInfo): AgentAnswer {
	const answer: AgentAnswer = {};
	const message = str(json.agent_message) ?? str(json.user_message);
	if (GATES.has(entry.event)) {
		const permission = json.permission;
		if (permission === "deny") return { deny: message ?? "denied by a Cursor hook" };
		if (permission === "ask") return { ask: message ?? "a Cursor hook asks for confirmation" };
		if (permission !== undefined && permission !== "allow")
			return { failure: `permission must be allow, deny or ask, got ${JSON.stringify(permission)}` };
		if (json.updated_input !== undefined && entry.event === "preToolUse") {
			if (!isObject(json.updated_input)) return { failure: "updated_input must be an object" };
			const { working_directory: _, ...rest } = json.updated_input;
			answer.input = rest;
		}
		return answer;
	}
	if (typeof json.user_message === "string" && json.user_message) answer.notice = json.user_message;
	const context = str(json.additional_context);
	switch (entry.event) {
		case "postToolUse":
			if (json.updated_mcp_tool_output !== undefined && info.call && isMcp(info.call.name)) answer.output = json.updated_mcp_tool_output;
			if (context) answer.context = context;
			return answer;
		case "beforeSubmitPrompt":
			if (json.continue === false) return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${message ?? ""}` };
			return answer;
		case "stop":
			if (str(json.followup_message)) answer.continueWith = json.followup_message as string;
			return answer;
		default:
			if (context) answer.context = context;
			return answer;
	}
}

const calls: Record<string, (name: string) => boolean> = {
	beforeShellExecution: (name) => name === "Shell",
	afterShellExecution: (name) => name === "Shell",
	beforeReadFile: (name) => name === "Read",
	afterFileEdit: (name) => name === "Write" || name === "edit",
};

/** Cursor. */
export const cursorDialect: Dialect = {
	agent: CURSOR.name,
	// MCP hooks are not run for our tools; afterFileEdit, which the bridge cannot answer, runs after our edits.
	events: { ...hookTargets(cursorEvents, ["beforeMCPExecution", "afterMCPExecution"]), afterFileEdit: "tool_result" },
	label: "Cursor",
	tools: cursorBridge.tools,
	absolutePaths: true,
	matchMode: CURSOR.matchMode,
	fires(entry, info) {
		const only = calls[entry.event];
		if (only && !only(info.call?.name ?? "")) return false;
		if (info.event.type === "tool_result" && (entry.event === "postToolUse" || entry.event === "postToolUseFailure"))
			return (entry.event === "postToolUseFailure") === info.event.isError;
		return true;
	},
	subject(entry, info) {
		if (entry.event === "beforeShellExecution" || entry.event === "afterShellExecution") return String(info.call?.input.command ?? "");
		return info.call?.name;
	},
	env: (info) => ({ CURSOR_PROJECT_DIR: info.cwd, CLAUDE_PROJECT_DIR: info.cwd }),
	payload: (entry, info) => ({
		conversation_id: info.sessionId,
		generation_id: info.sessionId,
		model: info.model ?? "unknown",
		hook_event_name: entry.event,
		cursor_version: "xcsh-hooks",
		workspace_roots: [info.cwd],
		user_email: null,
		transcript_path: null,
		...eventFields(entry, info),
	}),
	read(entry, result, info) {
		const stderr = result.stderr.trim();
		if (result.code === 2) {
			if (GATES.has(entry.event)) return { deny: stderr || `blocked by ${entry.command}` };
			if (entry.event === "beforeSubmitPrompt")
				return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${stderr}` };
			return stderr ? { notice: stderr } : {};
		}
		if (result.code !== 0) return { failure: exitFailure(result) };
		const parsed = parseAnswer(result.stdout);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		if (parsed.json) return readJson(entry, parsed.json, info);
		return parsed.text ? { failure: "printed something that is not JSON" } : {};
	},
	outputText: (_call, output) => outputAsText(output),
};
