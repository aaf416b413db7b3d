import { agentNames, findAgent } from "../agents/index.ts";
import type { AgentBridge } from "../agents/_shared/bridge-types.ts";

/**
 * The names `bridge` accepts: every agent in the registry (src/agents/index.ts) but those that load our
 * runner in their own process (OpenCode, Kilo), which have no hook command to bridge.
 */
export const bridgeNames = (): string[] => agentNames().filter((name) => findAgent(name)?.inProcess === undefined);

/** The bridge for `name` (only that agent's module is loaded), or `undefined` when no agent has that name. */
export function loadBridge(name: string): Promise<AgentBridge> | undefined {
	return findAgent(name)?.bridge();
}

export type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome } from "../agents/_shared/bridge-types.ts";
