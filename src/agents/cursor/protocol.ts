/** Cursor's protocol facts that more than one direction reads (docs/agents/cursor.md; not on npm: from its docs). */
export const CURSOR = {
	name: "cursor",
	label: "Cursor",
	timeoutSeconds: 25,
	projectVariable: "CURSOR_PROJECT_DIR",
	timeoutUnitMs: 1000,
	/** Cursor documents no default: 60 s here. */
	defaultTimeoutMs: 60_000,
	matchMode: "regex-or-exact",
} as const;
