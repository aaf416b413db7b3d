import { GEMINI } from "./protocol.ts";
import { answerJson, askAsDeny, isRecord, nonEmpty, specificOutput, stringField } from "../_shared/answer.ts";
import { obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { fileRules, shellRule } from "../_shared/tools.ts";
import { nestedString, splitPrefixed } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * Google Gemini CLI (docs/agents/gemini.md): `xcsh-hooks bridge gemini` as a command hook. Gemini
 * ignores Claude-style `hookSpecificOutput.permissionDecision`; it reads top-level `decision`.
 *
 * - BeforeTool → `tool_call` (no call id in the payload: one is generated): deny =
 *   `{decision: "deny", reason}`; a rewrite = `decision: "allow"` + `hookSpecificOutput.tool_input`
 *   holding the complete arguments (0.61 replaces them, it does not merge).
 * - AfterTool → `tool_result` (text = `tool_response.llmContent`): a replaced output is
 *   `{decision: "deny", reason: text}`, which the model receives as the tool's `error`.
 * - BeforeAgent → `before_agent_start` (`hookSpecificOutput.additionalContext`); SessionStart,
 *   SessionEnd, AfterAgent → `session_start`, `session_shutdown`, `agent_end`; PreCompress →
 *   `session_before_compact`.
 *
 * Cannot: give a replaced output as a normal (non-error) result; replace only the raw output
 * (`details`); cancel a compaction (PreCompress is advisory). Gemini escapes `<`/`>` in context.
 */

const common: Shape = { session_id: str, hook_event_name: str, cwd: opt(str), transcript_path: opt(str), timestamp: opt(str) };

const toolCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: p.tool_input as Record<string, unknown>,
	output: p.tool_response,
	isError: isRecord(p.tool_response) && p.tool_response.error !== undefined && p.tool_response.error !== null,
});

const none: AgentEventSpec = { fields: common, to: null };

/** Gemini CLI's hook events and what each becomes. */
export const geminiEvents: Record<string, AgentEventSpec> = {
	BeforeTool: { fields: { ...common, tool_name: str, tool_input: obj() }, to: "tool_call", call: toolCall },
	AfterTool: { fields: { ...common, tool_name: str, tool_input: obj(), tool_response: obj() }, to: "tool_result", call: toolCall },
	BeforeAgent: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	AfterAgent: { fields: common, to: "agent_end" },
	SessionStart: { fields: common, to: "session_start" },
	SessionEnd: { fields: common, to: "session_shutdown" },
	PreCompress: {
		fields: { ...common, trigger: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" } }),
	},
	BeforeModel: none,
	AfterModel: none,
	BeforeToolSelection: none,
	Notification: none,
};

const deny = (reason: string) => ({ decision: "deny", reason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(event: string, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return deny(outcome.reason);
		case "ask":
			// Gemini 0.61 turns `decision: "ask"` into its own confirmation even under --yolo, but a headless run
			// (`-p`) then waits for an answer nobody can give, until it is killed; a hook cannot tell the two
			// apart, so an ask is our deny, naming it.
			return deny(askAsDeny(outcome.reason, "Gemini CLI"));
		case "rewrite":
			return { decision: "allow", ...specificOutput("BeforeTool", { tool_input: outcome.input }) };
		case "replace":
			if (outcome.text === undefined) {
				warn("gemini AfterTool: only text can replace a tool output; the hook's replaced details were dropped");
				return {};
			}
			return { decision: "deny", reason: nonEmpty(outcome.text, "(output removed by a hook)") };
		case "context":
			return specificOutput(event, { additionalContext: outcome.text });
		case "cancel":
			warn(`gemini ${event}: Gemini cannot cancel a compaction; the hook's cancel was ignored`);
			return {};
		case "deny-start": // Gemini has no subagent events
		case "messages": // no context event in this agent
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The Gemini CLI bridge. */
export const geminiBridge: AgentBridge = {
	name: GEMINI.name,
	events: geminiEvents,
	tools: [shellRule("run_shell_command"), ...fileRules({ read: "read_file", write: "write_file", edit: "replace" })],
	// Gemini's default hook timeout is 60 s (in ms in its settings).
	timeoutSeconds: GEMINI.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs: (payload, env) => [env[GEMINI.projectVariable], stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "session_id"),
	transcript: (payload) => stringField(payload, "transcript_path"),
	// No `subagent`: Gemini's payloads say nothing about the subagent (`invoke_agent`) that made a call.
	mcpTool(call, payload) {
		// `mcp_context` names the server and tool when Gemini sends it; else the name `mcp_<server>_<tool>`,
		// read with the server up to the first `_` (a server name with `_` in it is then taken for part of the tool).
		const server = nestedString(payload, "mcp_context", "server_name");
		const tool = nestedString(payload, "mcp_context", "tool_name");
		if (server) {
			const prefix = `mcp_${server}_`;
			return { server, tool: tool ?? (call.name.startsWith(prefix) ? call.name.slice(prefix.length) : call.name) };
		}
		return splitPrefixed(call.name, "mcp_", "_");
	},
	// The reader is loaded only when a hook reads the session.
	readTranscript: (text) => (require("./transcript.ts") as typeof import("./transcript.ts")).readGeminiTranscript(text, geminiBridge.tools),
	outputText(call) {
		const output = call.output;
		if (!isRecord(output)) return outputAsText(output);
		if (typeof output.error === "string" && output.error) return output.error;
		return outputAsText(output.llmContent ?? output.returnDisplay);
	},
	answer: (event, _payload, outcome, notes) => answerJson(body(event, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
