import { XcshError } from "../errors.ts";
import type { AgentDescriptor, AgentOwnHooks } from "./_shared/descriptor.ts";
import { auggie } from "./auggie/index.ts";
import type { AgentHookFolders } from "./_shared/hook-folders.ts";
import { claude } from "./claude/index.ts";
import { cline } from "./cline/index.ts";
import { codex } from "./codex/index.ts";
import { copilot } from "./copilot/index.ts";
import { cursor } from "./cursor/index.ts";
import { droid } from "./droid/index.ts";
import { gemini } from "./gemini/index.ts";
import { kilo } from "./kilo/index.ts";
import { opencode } from "./opencode/index.ts";
import { openclaw } from "./openclaw/index.ts";
import { pi } from "./pi/index.ts";
import { qwen } from "./qwen/index.ts";

/*
 * The registry: every agent the project speaks for, one line each. The generic machinery (the bridge
 * flow, forwarding, the agent-config providers, approval, `install`) finds agents only here, and no
 * agent folder imports another. Adding an agent is a folder under src/agents/ and one line below.
 * A descriptor is small data plus loaders, so listing every agent costs next to nothing on start-up.
 */
const BUILT_IN: readonly AgentDescriptor[] = [
	claude,
	codex,
	gemini,
	cursor,
	copilot,
	qwen,
	droid,
	auggie,
	cline,
	opencode,
	kilo,
	pi,
	openclaw,
];

const registry = new Map<string, AgentDescriptor>(BUILT_IN.map((agent) => [agent.name, agent]));

/** The agents' names, in registry order (`bridge`, `install`, completion and help list them so). */
export function agentNames(): string[] {
	return [...registry.keys()];
}

/** The agent called `name`, or `undefined`. */
export function findAgent(name: string): AgentDescriptor | undefined {
	return registry.get(name);
}

/** Every agent whose own command hooks we read, with that part of its descriptor. */
export function agentsWithOwnHooks(): Array<AgentDescriptor & { ownHooks: AgentOwnHooks }> {
	return [...registry.values()].filter((agent): agent is AgentDescriptor & { ownHooks: AgentOwnHooks } => agent.ownHooks !== undefined);
}

/** Every agent that names folders of hook files, with that part of its descriptor, in registry order. */
export function agentsWithHookFolders(): Array<AgentDescriptor & { hookFolders: AgentHookFolders }> {
	return [...registry.values()].filter(
		(agent): agent is AgentDescriptor & { hookFolders: AgentHookFolders } => agent.hookFolders !== undefined,
	);
}

/**
 * Adds an agent for this process (an embedder's own agent, or a test's fake one); its name must be new.
 * Returns a function that removes it again.
 */
export function registerAgent(agent: AgentDescriptor): () => void {
	if (!/^[a-z][a-z0-9-]*$/.test(agent.name))
		throw new XcshError("INVALID_OPTION", `agent name ${JSON.stringify(agent.name)} must be lower-case letters, digits and dashes`);
	if (registry.has(agent.name)) throw new XcshError("ALREADY_REGISTERED", `agent "${agent.name}" is already registered`);
	registry.set(agent.name, agent);
	return () => {
		if (registry.get(agent.name) === agent) registry.delete(agent.name);
	};
}

export type { AgentConfigPlace, AgentDescriptor, AgentOwnHooks } from "./_shared/descriptor.ts";
