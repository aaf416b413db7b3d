/** GitHub Copilot CLI's protocol facts that more than one direction reads (docs/agents/copilot.md). */
export const COPILOT = {
	name: "copilot",
	label: "GitHub Copilot CLI",
	timeoutSeconds: 25,
	projectVariable: "COPILOT_PROJECT_DIR",
	/** Its `timeoutSec` field counts seconds. */
	timeoutUnitMs: 1000,
} as const;
