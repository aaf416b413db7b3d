import { AUGGIE } from "./protocol.ts";
import { answerJson, askAsDeny as askDenyReason, specificOutput, stringField } from "../_shared/answer.ts";
import { claudeStyleDeny } from "../_shared/claude-family.ts";
import { any, arr, bool, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { shellRule, type ToolRule } from "../_shared/tools.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * Auggie, Augment Code's CLI (observed on 0.36.0): `xcsh-hooks bridge auggie` as a command hook.
 * Claude Code's answers, its own payloads: `conversation_id` and `workspace_roots` (no `session_id`,
 * `cwd`, `transcript_path` or `tool_use_id`), `tool_output` / `tool_error` after a call, `PromptSubmit`
 * for the prompt event. Its tools: `launch-process {command, wait, cwd, max_wait_seconds}`, `view
 * {path}`, `save-file {path, file_content}`, `str-replace-editor`, `remove-files`.
 *
 * - PreToolUse → `tool_call`: deny = `hookSpecificOutput.permissionDecision: "deny"` + reason (the model
 *   gets the reason as an error result); a rewrite = `permissionDecision: "allow"` + `updatedInput`,
 *   which Auggie puts in place of the whole input, so it is always the complete input (`wait`, `cwd`
 *   and `max_wait_seconds` kept: without `wait` the command would run in the background).
 * - PostToolUse → `tool_result`: Auggie has no answer that replaces an output; `additionalContext` is
 *   appended to the result after `[Hook Context]`, so a replaced output goes there and the original
 *   stays visible too.
 * - PromptSubmit → `before_agent_start`, SessionStart / SessionEnd / Stop → `session_start` /
 *   `session_shutdown` / `agent_end`. Auggie starts the prompt and session hooks without waiting for
 *   them and hands nothing they answer to the model, so a hook's prompt context cannot reach it.
 *
 * Cannot: replace a tool output (secrets a hook redacts still reach the model); add prompt context;
 * ask the user (an ask lets the call run in `--print`, so it is answered as a deny, see
 * {@link askAsDeny}). Auggie lets a call run when a hook fails or times out: the entry `install`
 * writes turns every failure of ours into exit 2, which blocks (src/agents/_shared/entry-shell.ts).
 */

const common: Shape = { conversation_id: str, hook_event_name: str, workspace_roots: opt(arr) };
const tool: Shape = { ...common, tool_name: str, tool_input: obj(), is_mcp_tool: opt(bool) };
const none: AgentEventSpec = { fields: common, to: null };

/** Auggie writes `undefined` values as the string `"[undefined]"` (its JSON replacer): such a field was not given. */
const given = (value: unknown): unknown => (value === "[undefined]" ? undefined : value);

const toolCall = (p: Payload): AgentToolCall => {
	const error = given(p.tool_error);
	return {
		name: p.tool_name as string,
		input: p.tool_input as Record<string, unknown>,
		output: typeof error === "string" && error ? error : given(p.tool_output),
		isError: typeof error === "string" && error !== "",
	};
};

/** Auggie's hook events and what each becomes. */
export const auggieEvents: Record<string, AgentEventSpec> = {
	PreToolUse: { fields: tool, to: "tool_call", call: toolCall },
	PostToolUse: { fields: { ...tool, tool_output: opt(any), tool_error: opt(any) }, to: "tool_result", call: toolCall },
	PromptSubmit: {
		fields: { ...common, user_prompt: opt(str) },
		to: "before_agent_start",
		prompt: (p) => {
			const prompt = given(p.user_prompt);
			return typeof prompt === "string" ? prompt : "";
		},
	},
	SessionStart: { fields: common, to: "session_start" },
	SessionEnd: { fields: common, to: "session_shutdown" },
	Stop: { fields: { ...common, agent_stop_cause: opt(str) }, to: "agent_end" },
	Notification: none,
};

/** Auggie's tools as the built-in ones: the shell, the file view and the file write. */
export const auggieTools: ToolRule[] = [
	shellRule("launch-process"),
	{ agent: "view", ours: "read", fields: { path: "path" } },
	{ agent: "save-file", ours: "write", fields: { path: "path", content: "file_content" } },
];

/**
 * The answer to a hook's ask: Auggie's `permissionDecision: "ask"` lets the call run when no one can be
 * asked (`--print`), so an ask is a deny naming the question (docs/ask.md).
 */
export const askAsDeny = (reason: string): Record<string, unknown> => claudeStyleDeny(askDenyReason(reason, "Auggie"));

function body(event: string, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return claudeStyleDeny(outcome.reason);
		case "ask":
			return askAsDeny(outcome.reason);
		case "rewrite":
			return specificOutput("PreToolUse", { permissionDecision: "allow", updatedInput: outcome.input });
		case "replace":
			if (outcome.text === undefined) {
				warn(`auggie ${event}: only text can stand for a replaced output; the hook's replaced details were dropped`);
				return {};
			}
			warn(`auggie ${event}: Auggie cannot replace a tool output; the replacement is appended as context and the original stays visible`);
			return specificOutput("PostToolUse", {
				additionalContext: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${outcome.text}`,
			});
		case "context":
			warn(`auggie ${event}: Auggie does not give a prompt hook's context to the model; the hook's message was dropped`);
			return {};
		// No event of this agent becomes subagent_start or session_before_compact.
		case "cancel":
		case "deny-start":
		case "messages":
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The Auggie bridge. */
export const auggieBridge: AgentBridge = {
	name: AUGGIE.name,
	events: auggieEvents,
	tools: auggieTools,
	timeoutSeconds: AUGGIE.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs(payload, env) {
		const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots : [];
		return [env[AUGGIE.projectVariable], typeof roots[0] === "string" ? roots[0] : undefined];
	},
	sessionId: (payload) => stringField(payload, "conversation_id"),
	outputText: (call) => outputAsText(call.output),
	answer: (event, _payload, outcome, notes) => answerJson(body(event, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(claudeStyleDeny(reason)),
};
