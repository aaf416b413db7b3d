import type { AgentBridge } from "../agents/_shared/bridge-types.ts";

/**
 * The agents `xcsh-hooks bridge <agent>` speaks for, each loaded only when named (one module per
 * agent). Adding an agent is one file and one line here. The agent modules share their layout (payload
 * fields, event map, tool rules, answer builders), so parts of them look alike: each is that agent's
 * protocol written out on its own, deliberately, and what is truly common lives in `_answer.ts`,
 * `fields.ts`, `map.ts` and `tools.ts`.
 */
export const bridges: Record<string, () => Promise<AgentBridge>> = {
	claude: () => import("../agents/claude/bridge.ts").then((m) => m.claudeBridge),
	codex: () => import("../agents/codex/bridge.ts").then((m) => m.codexBridge),
	gemini: () => import("../agents/gemini/bridge.ts").then((m) => m.geminiBridge),
	cursor: () => import("../agents/cursor/bridge.ts").then((m) => m.cursorBridge),
	copilot: () => import("../agents/copilot/bridge.ts").then((m) => m.copilotBridge),
};

/** The names `bridge` accepts. */
export const bridgeNames = (): string[] => Object.keys(bridges);

/** The bridge for `name`, or `undefined` when no agent has that name. */
export function loadBridge(name: string): Promise<AgentBridge> | undefined {
	return Object.hasOwn(bridges, name) ? bridges[name]?.() : undefined;
}

export type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome } from "../agents/_shared/bridge-types.ts";
