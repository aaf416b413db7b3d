import type { AgentBridge } from "./types.ts";

/**
 * The agents `xcsh-hooks bridge <agent>` speaks for, each loaded only when named (one module per
 * agent). Adding an agent is one file and one line here.
 */
export const bridges: Record<string, () => Promise<AgentBridge>> = {
	claude: () => import("./claude.ts").then((m) => m.claudeBridge),
	codex: () => import("./codex.ts").then((m) => m.codexBridge),
	gemini: () => import("./gemini.ts").then((m) => m.geminiBridge),
	cursor: () => import("./cursor.ts").then((m) => m.cursorBridge),
	copilot: () => import("./copilot.ts").then((m) => m.copilotBridge),
};

/** The names `bridge` accepts. */
export const bridgeNames = (): string[] => Object.keys(bridges);

/** The bridge for `name`, or `undefined` when no agent has that name. */
export function loadBridge(name: string): Promise<AgentBridge> | undefined {
	return Object.hasOwn(bridges, name) ? bridges[name]?.() : undefined;
}

export type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome } from "./types.ts";
