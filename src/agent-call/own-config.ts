import { findAgent } from "../agents/index.ts";

/** The discovery provider of `agent`'s own hook config, to exclude when bridging for it (none for an agent whose config we do not read). */
export function ownConfigProvider(agent: string): string[] {
	const id = findAgent(agent)?.ownHooks?.providerId;
	return id === undefined ? [] : [id];
}
