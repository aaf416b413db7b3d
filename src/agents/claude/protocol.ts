/**
 * Claude Code's protocol facts that more than one direction reads (docs/agents/claude.md): the bridge,
 * the dialect that runs Claude's own hooks, the forwarding client and `install`.
 */
export const CLAUDE = {
	name: "claude",
	label: "Claude Code",
	/** Claude waits 600 s for a command hook by default; `install` writes 60 s. */
	timeoutSeconds: 55,
	projectVariable: "CLAUDE_PROJECT_DIR",
	/** Its `timeout` field counts seconds. */
	timeoutUnitMs: 1000,
	defaultTimeoutMs: 600_000,
	matchMode: "claude",
} as const;
