import { XcshError } from "../errors.ts";
import { agentNames, findAgent } from "../agents/index.ts";
import type { AgentSpec } from "../agents/_shared/install-spec.ts";

/*
 * The agents `install`/`uninstall` write hook entries for: every agent in the registry
 * (src/agents/index.ts), each with the spec its folder's `install.ts` gives.
 */

/** An agent name `install` accepts (see {@link isAgent}). */
export type Agent = string;

/** The agents' names, in registry order. */
export function installableAgents(): string[] {
	return agentNames();
}

/** Whether `name` is an agent `install` knows. */
export function isAgent(name: string): name is Agent {
	return findAgent(name) !== undefined;
}

/** The install description of `agent`. */
export function agentSpec(agent: Agent): AgentSpec {
	const found = findAgent(agent);
	if (!found) throw new XcshError("UNKNOWN_NAME", `unknown agent "${agent}"`);
	return found.install();
}

export { type AgentEvent, type AgentSpec, HTTP_TOKEN_VARIABLE, type Scope, scriptMarker } from "../agents/_shared/install-spec.ts";
