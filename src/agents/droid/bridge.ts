import { DROID } from "./protocol.ts";
import { answerJson, askAsDeny, specificOutput, stringField } from "../_shared/answer.ts";
import { claudeStyleCall, claudeStyleCommon, claudeStyleDeny } from "../_shared/claude-family.ts";
import { any, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { outputAsText } from "../_shared/text.ts";
import { fileRules, shellRule } from "../_shared/tools.ts";
import { splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, Outcome } from "../_shared/bridge-types.ts";

/**
 * Factory Droid (docs/agents/droid.md): `xcsh-hooks bridge droid` as a command hook. Claude Code's events
 * and answers; its own tool names (`Execute {command}`, `Read {file_path}`); no `tool_use_id`;
 * `tool_response` is a string.
 *
 * - PreToolUse → `tool_call`: deny = `hookSpecificOutput.permissionDecision: "deny"` + reason (Droid
 *   ignores top-level `decision`); a rewrite = `permissionDecision: "allow"` + `updatedInput`, which Droid
 *   merges over the input (so a field the hook removed stays). An ask is a deny naming it: Droid runs a
 *   call its hook answers `permissionDecision: "ask"` about.
 * - PostToolUse → `tool_result`: Droid has no answer that replaces an output; a replaced output goes back
 *   as `additionalContext` (a user message after the tool result), so the original stays visible too.
 * - SessionStart → `before_agent_start`: `droid exec` fires no UserPromptSubmit, so the prompt context is
 *   given once per session, as SessionStart `additionalContext` (the hooks see an empty prompt).
 *   UserPromptSubmit (interactive) → `before_agent_start` as well; `install` does not write it, or the
 *   first prompt would get the context twice.
 * - SessionEnd / Stop → `session_shutdown` / `agent_end`; PreCompact → `session_before_compact`
 *   (cancel = `decision: "block"`, documented, not observed).
 *
 * Cannot: replace a tool output; run `session_start` hooks (SessionStart carries the prompt context).
 */

const none: AgentEventSpec = { fields: claudeStyleCommon, to: null };
const tool: Shape = { ...claudeStyleCommon, tool_name: str, tool_input: obj() };

/** Factory Droid's hook events and what each becomes. */
export const droidEvents: Record<string, AgentEventSpec> = {
	PreToolUse: { fields: tool, to: "tool_call", call: claudeStyleCall },
	PostToolUse: { fields: { ...tool, tool_response: any }, to: "tool_result", call: claudeStyleCall },
	SessionStart: { fields: { ...claudeStyleCommon, source: opt(str) }, to: "before_agent_start", prompt: () => "" },
	UserPromptSubmit: { fields: { ...claudeStyleCommon, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	SessionEnd: { fields: claudeStyleCommon, to: "session_shutdown" },
	Stop: { fields: claudeStyleCommon, to: "agent_end" },
	PreCompact: {
		fields: { ...claudeStyleCommon, trigger: opt(str), custom_instructions: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({ preparation: { trigger: p.trigger ?? "auto" }, customInstructions: stringField(p, "custom_instructions") }),
	},
	Notification: none,
	SubagentStop: none,
};

function body(event: string, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return claudeStyleDeny(outcome.reason);
		case "ask":
			// Droid runs a call its hook asks about (`--auto high`, skip-permissions): our deny, naming the ask.
			return claudeStyleDeny(askAsDeny(outcome.reason, "Factory Droid"));
		case "rewrite":
			return specificOutput("PreToolUse", { permissionDecision: "allow", updatedInput: outcome.input });
		case "replace":
			if (outcome.text === undefined) {
				warn(`droid ${event}: only text can stand for a replaced output; the hook's replaced details were dropped`);
				return {};
			}
			warn(`droid ${event}: Droid cannot replace a tool output; the replacement is sent as context and the original stays visible`);
			return specificOutput(event, {
				additionalContext: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${outcome.text}`,
			});
		case "context":
			return specificOutput(event, { additionalContext: outcome.text });
		case "cancel":
			return { decision: "block", reason: outcome.reason };
		// No event of this agent becomes subagent_start, so nothing can be refused here.
		case "deny-start":
		case "messages": // no context event in this agent
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The Factory Droid bridge. */
export const droidBridge: AgentBridge = {
	name: DROID.name,
	events: droidEvents,
	tools: [shellRule("Execute"), ...fileRules({ read: "Read", write: "Create" })],
	timeoutSeconds: DROID.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "hook_event_name"),
	projectDirs: (payload, env) => [env[DROID.projectVariable], env.DROID_PROJECT_DIR, stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "session_id"),
	transcript: (payload) => stringField(payload, "transcript_path"),
	// Claude's subagent fields, should Droid send them: not seen, as `droid exec`'s Task cannot start a
	// subagent offline ("Could not reach the daemon"), so a subagent's call may reach hooks as the main agent's.
	subagent: (payload) => subagentOf(payload, { id: ["agent_id"], type: ["agent_type"] }),
	// Measured in 0.225.2: MCP tools are `mcp__<server>__<tool>`, with no server field beside them.
	mcpTool: (call) => splitPrefixed(call.name, "mcp__", "__"),
	outputText: (call) => outputAsText(call.output),
	answer: (event, _payload, outcome, notes) => answerJson(body(event, outcome, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(claudeStyleDeny(reason)),
};
