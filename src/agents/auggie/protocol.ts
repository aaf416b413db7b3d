/** Auggie's protocol facts that more than one direction reads (observed on 0.36.0 against a scripted Augment API). */
export const AUGGIE = {
	name: "auggie",
	label: "Auggie",
	/**
	 * Auggie waits 60 s for a hook by default and lets the call run when a hook times out, so every
	 * deadline of ours comes before the 60 s `install` writes: the bridge answers by itself at 50 s, and the
	 * entry's shell ends a bridge still running at {@link entryDeadlineSeconds} (SIGTERM, then SIGKILL 3 s
	 * later) and blocks the call.
	 */
	timeoutSeconds: 50,
	entryDeadlineSeconds: 54,
	projectVariable: "AUGMENT_PROJECT_DIR",
	/** Its `timeout` field counts milliseconds (`"timeout": 60` is 60 ms: every hook timed out and every call ran). */
	timeoutUnitMs: 1,
	defaultTimeoutMs: 60_000,
	/** Its matcher is a JavaScript regular expression (`"*"` is not one: the entry would be rejected); `.*` matches every tool. */
	matchAll: ".*",
} as const;
