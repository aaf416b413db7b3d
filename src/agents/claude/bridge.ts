import { CLAUDE } from "./protocol.ts";
import { answerJson, isRecord, nonEmpty, permissionAnswer, specificOutput, stringField, suggestionsOf } from "../_shared/answer.ts";
import { any, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { fileRules, shellRule } from "../_shared/tools.ts";
import { claudeStyleSubagentEvent, nestedString, splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * Claude Code (docs/agents/claude.md): `xcsh-hooks bridge claude` as a command hook.
 *
 * - PreToolUse → `tool_call`: deny is `hookSpecificOutput.permissionDecision: "deny"` with the reason;
 *   an ask is `permissionDecision: "ask"` with the reason (Claude prompts the person; docs/ask.md);
 *   a rewrite is `permissionDecision: "allow"` + `updatedInput` (the whole input), so a rewritten call
 *   counts as approved by the hook (Claude's own deny/ask rules still apply).
 * - PostToolUse → `tool_result`: a replaced output goes back as `updatedToolOutput` in the tool's own
 *   shape (`Bash` → `stdout`, stderr cleared because hooks saw it in the text; `Read` → `file.content`;
 *   string and content-block outputs as such). Replaced `details` are the whole raw output.
 * - UserPromptSubmit → `before_agent_start`: a message becomes `additionalContext`.
 * - SessionStart / SessionEnd / Stop → `session_start` / `session_shutdown` / `agent_end`;
 *   PreCompact → `session_before_compact`, cancel = `decision: "block"`.
 * - PermissionRequest → `permission_request`: `hookSpecificOutput.decision.behavior` allow or deny
 *   (with the reason as `message`); no opinion lets Claude prompt as usual.
 * - Hook notifications are also shown to the user as `systemMessage`.
 *
 * Cannot: put free text into a tool output whose shape it does not know (Write, Edit, Grep…) unless the
 * text is that shape's JSON — then the text goes back as `decision: "block"` feedback, and the
 * original output stays visible to the model; replace the output of a failed call (PostToolUseFailure).
 */

const common: Shape = { session_id: str, hook_event_name: str, cwd: opt(str), transcript_path: opt(str) };

const toolCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: p.tool_input as Record<string, unknown>,
	id: stringField(p, "tool_use_id"),
	output: p.tool_response,
	isError: p.hook_event_name === "PostToolUseFailure",
});

const none: AgentEventSpec = { fields: common, to: null };

/** Claude Code's hook events and what each becomes. */
export const claudeEvents: Record<string, AgentEventSpec> = {
	PreToolUse: { fields: { ...common, tool_name: str, tool_input: obj(), tool_use_id: opt(str) }, to: "tool_call", call: toolCall },
	PostToolUse: {
		fields: { ...common, tool_name: str, tool_input: obj(), tool_response: any, tool_use_id: opt(str) },
		to: "tool_result",
		call: toolCall,
	},
	PostToolUseFailure: {
		fields: { ...common, tool_name: str, tool_input: obj(), error: opt(str) },
		to: "tool_result",
		call: (p) => ({ ...toolCall(p), output: stringField(p, "error") ?? "", isError: true }),
	},
	UserPromptSubmit: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	SessionStart: { fields: common, to: "session_start" },
	SessionEnd: { fields: common, to: "session_shutdown" },
	Stop: { fields: common, to: "agent_end" },
	PreCompact: {
		fields: { ...common, trigger: opt(str), custom_instructions: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" }, customInstructions: stringField(p, "custom_instructions") }),
	},
	PermissionRequest: {
		fields: { ...common, tool_name: str, tool_input: obj(), permission_suggestions: opt(any) },
		to: "permission_request",
		call: toolCall,
		suggestions: (p) => suggestionsOf(p.permission_suggestions),
	},
	PostToolBatch: none,
	PermissionDenied: none,
	Notification: none,
	SubagentStart: { fields: { ...common, agent_id: str, agent_type: opt(str) }, to: "subagent_start" },
	SubagentStop: {
		fields: { ...common, agent_id: str, agent_type: opt(str), agent_transcript_path: opt(str), last_assistant_message: opt(str) },
		to: "subagent_end",
		subagentEvent: (p) => claudeStyleSubagentEvent(p, claudeBridge.subagent?.(p)),
	},
	StopFailure: none,
	PostCompact: none,
	UserPromptExpansion: none,
};

/** Claude's `updatedToolOutput` for a replaced output, in the tool's own shape; `undefined` when it has none for free text. */
export function claudeToolOutput(call: AgentToolCall, text: string | undefined, details: unknown): unknown {
	const base = details !== undefined ? details : call.output;
	if (text === undefined) return base;
	if (call.name === "Bash" && isRecord(base)) return { ...base, stdout: text, stderr: "" };
	if (call.name === "Read" && isRecord(base) && isRecord(base.file)) return { ...base, file: { ...base.file, content: text } };
	if (typeof base === "string") return text;
	if (Array.isArray(base)) return [{ type: "text", text }];
	try {
		const parsed: unknown = JSON.parse(text);
		return isRecord(parsed) ? parsed : undefined;
	} catch {
		return undefined;
	}
}

function bashText(output: Record<string, unknown>): string {
	const stdout = typeof output.stdout === "string" ? output.stdout : "";
	const stderr = typeof output.stderr === "string" ? output.stderr : "";
	return stdout && stderr ? `${stdout}\n${stderr}` : stdout || stderr;
}

const deny = (reason: string) =>
	specificOutput("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(event: string, payload: Payload, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return event === "PermissionRequest" ? permissionAnswer("deny", outcome.reason) : deny(outcome.reason);
		case "approve":
			return permissionAnswer("allow");
		case "ask":
			// Claude's own prompt, with the reason shown to the person; a rewrite travels with it.
			return specificOutput("PreToolUse", {
				permissionDecision: "ask",
				permissionDecisionReason: nonEmpty(outcome.reason, "a hook asks for confirmation"),
				...(outcome.input === undefined ? {} : { updatedInput: outcome.input }),
			});
		case "rewrite":
			return specificOutput("PreToolUse", { permissionDecision: "allow", updatedInput: outcome.input });
		case "replace": {
			if (event !== "PostToolUse") {
				warn(`claude ${event}: a failed call's output cannot be replaced; the hook's replacement was dropped`);
				return {};
			}
			const call = toolCall(payload);
			const updated = claudeToolOutput(call, outcome.text, outcome.details);
			if (updated !== undefined) return specificOutput("PostToolUse", { updatedToolOutput: updated });
			warn(`claude ${call.name}: its output shape cannot hold free text; sent as block feedback, the original output stays visible`);
			return { decision: "block", reason: nonEmpty(outcome.text ?? "", "(output replaced by a hook)") };
		}
		case "context":
			return specificOutput(event, { additionalContext: outcome.text });
		case "cancel":
			return { decision: "block", reason: outcome.reason };
		case "deny-start":
			warn(`claude ${event}: Claude Code cannot be told not to start a subagent; the hook's block was ignored`);
			return {};
		case "messages": // no context event in this agent
		case "none":
			return {};
	}
}

/** The Claude Code bridge. */
export const claudeBridge: AgentBridge = {
	name: CLAUDE.name,
	events: claudeEvents,
	tools: [shellRule("Bash"), ...fileRules({ read: "Read", write: "Write", edit: "Edit" }, true)],
	timeoutSeconds: CLAUDE.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs: (payload, env) => [env[CLAUDE.projectVariable], stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "session_id"),
	transcript: (payload) => stringField(payload, "transcript_path"),
	// Inside a subagent every payload carries `agent_id` and `agent_type`; Claude names no parent.
	subagent: (payload) => subagentOf(payload, { id: ["agent_id"], type: ["agent_type"] }),
	mcpTool(call, payload) {
		const split = splitPrefixed(call.name, "mcp__", "__");
		if (!split) return undefined;
		// `mcp_server` names the server as configured: `{name, source}` in 2.1.328 (a string in older notes);
		// the tool is what follows it in the name.
		const server = stringField(payload, "mcp_server") ?? nestedString(payload, "mcp_server", "name");
		if (!server || server === split.server) return split;
		const prefix = `mcp__${server}__`;
		return { server, tool: call.name.startsWith(prefix) && call.name.length > prefix.length ? call.name.slice(prefix.length) : split.tool };
	},
	// The reader is loaded only when a hook reads the session.
	readTranscript: (text) => (require("./transcript.ts") as typeof import("./transcript.ts")).readClaudeTranscript(text, claudeBridge.tools),
	outputText(call) {
		if (call.name === "Bash" && isRecord(call.output)) return bashText(call.output);
		if (call.name === "Read" && isRecord(call.output) && isRecord(call.output.file) && typeof call.output.file.content === "string")
			return call.output.file.content;
		return outputAsText(call.output);
	},
	answer(event, payload, outcome, notes) {
		const out = body(event, payload, outcome, notes.warn);
		if (notes.messages.length > 0) out.systemMessage = notes.messages.join("\n");
		return answerJson(out);
	},
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
