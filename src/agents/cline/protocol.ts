/** Cline CLI's protocol facts that more than one direction reads (docs/agents/cline.md, observed on 3.0.65). */
export const CLINE = {
	name: "cline",
	label: "Cline",
	/** Cline waits 120 s for a hook file, then runs the call; it has no timeout setting. */
	timeoutSeconds: 55,
	/** Cline sets no project-dir variable; the payload's `workspaceRoots` names it. */
	projectVariable: undefined,
	/** The payload's `hookName` → the hook file name (the event), for payloads run without `--event`. */
	hookNames: {
		tool_call: "PreToolUse",
		tool_result: "PostToolUse",
		agent_start: "TaskStart",
		agent_end: "TaskComplete",
	} as Record<string, string>,
} as const;
