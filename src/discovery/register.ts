import { agentHookProviders } from "../agent-hooks/providers.ts";
import { hookCapability } from "./hooks-capability.ts";
import { type CapabilityRegistry, defaultRegistry } from "../capability/registry.ts";
import { claudeProvider } from "./claude.ts";
import { codexProvider } from "./codex.ts";
import { nativeProvider } from "./native.ts";

/**
 * The hook providers, highest priority first: hook files (`native`, and the seed's `claude` / `codex`
 * folder layouts), then the command hooks of the agents' own configs (src/agent-hooks).
 */
export const hookProviders = [nativeProvider, claudeProvider, codexProvider, ...agentHookProviders] as const;

/**
 * Defines the `"hooks"` capability and registers its providers on `registry`; does nothing for
 * whatever is already there, so calling it again is harmless. Nothing registers on import: discovery
 * calls this on first use, and embedders call it to extend the default registry.
 */
export function registerHookDiscovery(registry: CapabilityRegistry = defaultRegistry): CapabilityRegistry {
	if (!registry.hasCapability(hookCapability.id)) registry.defineCapability(hookCapability);
	for (const provider of hookProviders)
		if (!registry.hasProvider(hookCapability.id, provider.id)) registry.registerProvider(hookCapability.id, provider);
	return registry;
}
