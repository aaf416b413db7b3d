/** pi coding agent's protocol facts that more than one direction reads (docs/agents/pi.md, observed on 0.73.1). */
export const PI = {
	name: "pi",
	label: "pi",
	/**
	 * pi has no handler timeout (its runner awaits each handler), so the bridge's own deadline is the
	 * only one: as for the CLI's handlers, long enough for a hook that asks the network. The extension
	 * kills a call that outlives it by {@link PI.graceSeconds} and blocks (a guard) or ignores it.
	 */
	timeoutSeconds: 55,
	/** How much longer than the bridge's deadline the extension waits for its answer. */
	graceSeconds: 5,
	/** pi sets no project-dir variable; the payload's `cwd` (pi's `ctx.cwd`) names it. */
	projectVariable: undefined,
	/** The file `install pi` writes in pi's extensions folder. */
	extensionFile: "xcsh-hooks.js",
	/** The pi events the extension forwards (each becomes one bridge call). */
	forwarded: [
		"tool_call",
		"tool_result",
		"before_agent_start",
		"context",
		"session_start",
		"session_shutdown",
		"session_before_compact",
		"agent_end",
	] as readonly string[],
} as const;
