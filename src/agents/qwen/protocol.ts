/** Qwen Code's protocol facts that more than one direction reads (docs/agents/qwen.md, observed on 0.24.4). */
export const QWEN = {
	name: "qwen",
	label: "Qwen Code",
	/** Qwen waits 60 s by default and lets the call run on a timeout; `install` writes 60 s. */
	timeoutSeconds: 55,
	projectVariable: "QWEN_PROJECT_DIR",
	/** Its `timeout` field counts seconds (a value of 1000 or more is read as ms, a legacy rule). */
	timeoutUnitMs: 1000,
	defaultTimeoutMs: 60_000,
	matchMode: "claude",
} as const;
