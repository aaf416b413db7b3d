/** Factory Droid's protocol facts that more than one direction reads (docs/agents/droid.md, observed on 0.225.2). */
export const DROID = {
	name: "droid",
	label: "Factory Droid",
	/** Droid waits 60 s by default and lets the call run on a timeout; `install` writes 60 s. */
	timeoutSeconds: 55,
	projectVariable: "FACTORY_PROJECT_DIR",
	/** Its `timeout` field counts seconds. */
	timeoutUnitMs: 1000,
	defaultTimeoutMs: 60_000,
	matchMode: "claude",
} as const;
