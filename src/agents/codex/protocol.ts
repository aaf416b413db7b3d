/** Codex CLI's protocol facts that more than one direction reads (docs/agents/codex.md). */
export const CODEX = {
	name: "codex",
	label: "Codex CLI",
	timeoutSeconds: 55,
	/** Codex sets no project variable for its hooks: the payload's `cwd` names the project. */
	projectVariable: undefined,
	timeoutUnitMs: 1000,
	defaultTimeoutMs: 600_000,
	matchMode: "codex",
} as const;
