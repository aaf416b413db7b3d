import type { AgentId } from "../agents/_shared/entry.ts";

/**
 * The discovery provider of each agent's own hook config. One definition: the providers are
 * registered under these ids, and a bridge excludes its agent's one, since that agent already runs
 * those hooks itself (running them again inside `bridge <agent>` would run each twice).
 */
export const AGENT_CONFIG_PROVIDER: Record<AgentId, string> = {
	claude: "claude-settings",
	codex: "codex-hooks",
	gemini: "gemini-settings",
	cursor: "cursor-hooks",
};
