/** Kilo Code CLI's protocol facts (PROTOCOLS.md D.2, observed on 7.7.7): an OpenCode fork, same plugin API. */
export const KILO = {
	name: "kilo",
	label: "Kilo Code",
	/** No command hooks: a `bridge kilo` call is refused; our plugin has the CLI's handler timeouts. */
	timeoutSeconds: 30,
	/** Kilo reads `.kilo/` and `.kilocode/`, not `.opencode/` (observed: a plugin there did not load). */
	projectDir: ".kilo/plugin",
	/** The user folder, by analogy with OpenCode's (inferred). */
	userDir: "kilo/plugin",
} as const;
