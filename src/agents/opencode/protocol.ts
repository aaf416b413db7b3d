/** OpenCode's protocol facts (docs/agents/opencode.md, observed on 1.18.33). */
export const OPENCODE = {
	name: "opencode",
	label: "OpenCode",
	/** No command hooks: a `bridge opencode` call is refused; our plugin has the CLI's handler timeouts. */
	timeoutSeconds: 30,
	/** Plugins are globbed from `{plugin,plugins}/*.{ts,js}` in `.opencode/` and `~/.config/opencode/`. */
	projectDir: ".opencode/plugin",
	userDir: "opencode/plugin",
} as const;
