import type { MatchMode } from "../agents/_shared/matcher.ts";
import type { AgentHookTarget, AgentId } from "../agents/_shared/entry.ts";

/**
 * The agent events whose command hooks run, and the event of ours each runs on (PROTOCOLS.md §13).
 * Events not listed (Notification, PermissionRequest, SubagentStop, BeforeModel, afterAgentThought…)
 * have no counterpart among our events: their entries are not run.
 */
export const AGENT_EVENTS: Record<AgentId, Record<string, AgentHookTarget>> = {
	claude: {
		PreToolUse: "tool_call",
		PostToolUse: "tool_result",
		PostToolUseFailure: "tool_result",
		UserPromptSubmit: "before_agent_start",
		SessionStart: "session_start",
		SessionEnd: "session_shutdown",
		Stop: "agent_end",
		PreCompact: "session_before_compact",
	},
	codex: {
		PreToolUse: "tool_call",
		PostToolUse: "tool_result",
		UserPromptSubmit: "before_agent_start",
		SessionStart: "session_start",
		SessionEnd: "session_shutdown",
		Stop: "agent_end",
		PreCompact: "session_before_compact",
	},
	gemini: {
		BeforeTool: "tool_call",
		AfterTool: "tool_result",
		BeforeAgent: "before_agent_start",
		SessionStart: "session_start",
		SessionEnd: "session_shutdown",
		AfterAgent: "agent_end",
		PreCompress: "session_before_compact",
	},
	cursor: {
		preToolUse: "tool_call",
		beforeShellExecution: "tool_call",
		beforeReadFile: "tool_call",
		postToolUse: "tool_result",
		postToolUseFailure: "tool_result",
		afterShellExecution: "tool_result",
		afterFileEdit: "tool_result",
		beforeSubmitPrompt: "before_agent_start",
		sessionStart: "session_start",
		sessionEnd: "session_shutdown",
		stop: "agent_end",
		preCompact: "session_before_compact",
	},
};

/** Milliseconds per unit of the agent's `timeout` field (Gemini counts in ms, the others in seconds). */
export const TIMEOUT_UNIT_MS: Record<AgentId, number> = { claude: 1000, codex: 1000, gemini: 1, cursor: 1000 };

/** The agent's own default timeout of a command hook, in ms (Cursor documents none: 60 s here). */
export const DEFAULT_TIMEOUT_MS: Record<AgentId, number> = { claude: 600_000, codex: 600_000, gemini: 60_000, cursor: 60_000 };

/** How each agent reads a matcher (see matcher.ts). */
export const MATCH_MODE: Record<AgentId, MatchMode> = {
	claude: "claude",
	codex: "codex",
	gemini: "regex-or-exact",
	cursor: "regex-or-exact",
};
