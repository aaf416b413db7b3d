/** OpenClaw's protocol facts that more than one direction reads (observed on OpenClaw 2026.9.6). */
export const OPENCLAW = {
	name: "openclaw",
	label: "OpenClaw",
	/** The plugin's id (`openclaw.plugin.json`), its key under `plugins.entries`, and its folder's name. */
	pluginId: "xcsh-hooks",
	/**
	 * The bridge's own deadline. OpenClaw's hook timeout (15 s unless the registration says otherwise)
	 * fails a tool call closed, but with its own words; the plugin registers `before_tool_call` with a
	 * longer one ({@link OPENCLAW.hookTimeoutMs}), so a slow hook is denied with our reason.
	 */
	timeoutSeconds: 55,
	/** How much longer than the bridge's deadline the plugin waits for a bridge process. */
	graceSeconds: 5,
	/** The timeout the plugin registers its hooks with (OpenClaw blocks the call when it passes). */
	hookTimeoutMs: 65_000,
	/** OpenClaw sets no project-dir variable; the payload's `cwd` (the agent's workspace) names it. */
	projectVariable: undefined,
	/** The events the plugin forwards, by the plugin payload's `type` (each becomes one bridge call). */
	forwarded: ["before_tool_call", "tool_result", "before_prompt_build"] as readonly string[],
} as const;
