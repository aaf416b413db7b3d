/** Kilo Code CLI's protocol facts (docs/agents/kilo.md, observed on 7.7.7): an OpenCode fork, same plugin API. */
export const KILO = {
	name: "kilo",
	label: "Kilo Code",
	/** No command hooks: a `bridge kilo` call is refused; our plugin has the CLI's handler timeouts. */
	timeoutSeconds: 30,
	/** Kilo reads `.kilo/` and `.kilocode/`, not `.opencode/` (observed: a plugin there did not load). */
	projectDir: ".kilo/plugin",
	/**
	 * The user folder under XDG_CONFIG_HOME: Kilo 7.7.7's bundled docs name `~/.config/kilo/` as the
	 * "XDG global" config folder, always loaded, with plugins from `{plugin,plugins}/*.{ts,js}` in every
	 * config folder; observed on the real client (test-agents: `install kilo --user` guards a run).
	 */
	userDir: "kilo/plugin",
} as const;
