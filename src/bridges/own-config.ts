import { AGENT_CONFIG_PROVIDER } from "../agent-hooks/provider-ids.ts";

/** The discovery provider of `agent`'s own hook config, to exclude when bridging for it (none for Copilot). */
export function ownConfigProvider(agent: string): string[] {
	const id = (AGENT_CONFIG_PROVIDER as Record<string, string | undefined>)[agent];
	return id === undefined ? [] : [id];
}
