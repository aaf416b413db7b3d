/**
 * The agent CLIs this suite drives, pinned to the versions agents/PROTOCOLS.md part A observed
 * (all four were on the npm registry at those exact versions when the suite was written).
 */
export interface AgentPin {
	/** npm package name. */
	pkg: string;
	/** Exact version installed into the cache. */
	version: string;
	/** Name of the executable in `node_modules/.bin`. */
	bin: string;
}

/** Agent id → pinned package. */
export const PINS = {
	claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.328", bin: "claude" },
	codex: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
	gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
	copilot: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
} as const satisfies Record<string, AgentPin>;

/** One of the agents in {@link PINS}. */
export type AgentId = keyof typeof PINS;
