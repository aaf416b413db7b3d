import { agentHookProviders } from "../agent-hooks/providers.ts";
import { hookCapability } from "../capability/hooks.ts";
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
 * whatever is already there, so calling it again is harmless. Runs on the default registry when
 * this module is imported.
 */
export function registerHookDiscovery(registry: CapabilityRegistry = defaultRegistry): CapabilityRegistry {
	if (!registry.hasCapability(hookCapability.id)) registry.defineCapability(hookCapability);
	for (const provider of hookProviders)
		if (!registry.hasProvider(hookCapability.id, provider.id)) registry.registerProvider(hookCapability.id, provider);
	return registry;
}

registerHookDiscovery();
