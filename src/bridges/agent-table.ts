/**
 * What the client that forwards `bridge <agent>` calls to `serve --socket` (src/bridges/forward.ts)
 * must know of each agent without loading its module; the agent modules read the same table.
 * - `timeoutSeconds`: after this the bridge answers by itself (a guard: deny) — below the agent's
 *   default hook timeout and the 60 s `install` writes, since most agents let a call run when a hook
 *   times out;
 * - `projectVariable`: the environment variable naming the project directory, if the agent sets one.
 */
export const BRIDGE_AGENTS = {
	claude: { timeoutSeconds: 55, projectVariable: "CLAUDE_PROJECT_DIR" },
	codex: { timeoutSeconds: 55, projectVariable: undefined },
	gemini: { timeoutSeconds: 55, projectVariable: "GEMINI_PROJECT_DIR" },
	cursor: { timeoutSeconds: 25, projectVariable: "CURSOR_PROJECT_DIR" },
	copilot: { timeoutSeconds: 25, projectVariable: "COPILOT_PROJECT_DIR" },
} as const;

/** The agents `bridge` speaks for. */
export type BridgeAgentName = keyof typeof BRIDGE_AGENTS;
