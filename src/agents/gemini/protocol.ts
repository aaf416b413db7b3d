/** Gemini CLI's protocol facts that more than one direction reads (docs/agents/gemini.md). */
export const GEMINI = {
	name: "gemini",
	label: "Gemini CLI",
	timeoutSeconds: 55,
	projectVariable: "GEMINI_PROJECT_DIR",
	/** Gemini's `timeout` field counts milliseconds. */
	timeoutUnitMs: 1,
	defaultTimeoutMs: 60_000,
	matchMode: "regex-or-exact",
} as const;
