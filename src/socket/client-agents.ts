import { agentNames, findAgent } from "../agents/index.ts";

/*
 * What the forwarding client (forward.ts) needs to know of each agent: that it exists, its
 * project-directory variable and its hook timeout. Run from source, this is read from the registry;
 * the compiled executable gets the same table as a literal (scripts/build.ts computes it with
 * {@link clientAgents} and inlines it), so a served call does not load and evaluate every agent's
 * descriptor (≈0.3 ms of its start-up). Only the built-in bridged agents (not OpenCode or Kilo): an embedder's own agent
 * (`registerAgent`) never reaches the CLI's start-up.
 */

/** One agent, as the forwarding client sees it. */
export interface ClientAgent {
	projectVariable?: string;
	timeoutSeconds: number;
}

/** The table, from the registry (what the build inlines). */
export function clientAgents(): Record<string, ClientAgent> {
	const table: Record<string, ClientAgent> = {};
	for (const name of agentNames()) {
		const agent = findAgent(name);
		// An agent that runs our runner in its own process (OpenCode, Kilo) has no bridge to forward.
		if (!agent || agent.inProcess !== undefined) continue;
		table[name] = {
			...(agent.projectVariable === undefined ? {} : { projectVariable: agent.projectVariable }),
			timeoutSeconds: agent.timeoutSeconds,
		};
	}
	return table;
}

/** The agents the forwarding client knows. */
export const CLIENT_AGENTS: Readonly<Record<string, ClientAgent>> = clientAgents();
