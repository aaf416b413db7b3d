import { agentHookProviders } from "./agent-config/providers.ts";
import { type Hook, hookCapability } from "./hooks-capability.ts";
import {
	type CapabilityDefinition,
	CapabilityRegistry,
	type CapabilityResult,
	type LoadCapabilityOptions,
	type ProviderDefinition,
} from "./capability/registry.ts";
import { hookFolderProviders } from "./agent-folders.ts";
import { nativeProvider } from "./native.ts";
import { systemProvider } from "./system.ts";

/**
 * The hook providers, highest priority first: the root-owned system folder, hook files (`native`, and the folders agents name: the seed's `claude` / `codex`
 * folder layouts), then the command hooks of the agents' own configs (src/discovery/agent-config).
 */
export function hookProviders(): ProviderDefinition<Hook>[] {
	return [systemProvider, nativeProvider, ...hookFolderProviders(), ...agentHookProviders()];
}

/**
 * Defines the `"hooks"` capability and registers its providers on `registry`; does nothing for
 * whatever is already there, so calling it again is harmless. Nothing registers on import: discovery
 * calls this on first use, and embedders call it to extend the default registry.
 */
export function registerHookDiscovery(registry: CapabilityRegistry = defaultRegistry): CapabilityRegistry {
	if (!registry.hasCapability(hookCapability.id)) registry.defineCapability(hookCapability);
	for (const provider of hookProviders())
		if (!registry.hasProvider(hookCapability.id, provider.id)) registry.registerProvider(hookCapability.id, provider);
	return registry;
}

/**
 * The shared registry behind the module-level functions. It has the package's one built-in capability,
 * `"hooks"` (docs/contract.md#loading: discovery starts with `loadCapability("hooks")`), defined with its providers on
 * first use, as the seed documents, without a prior `registerHookDiscovery()`; importing still defines
 * nothing. It lives here, beside the hooks capability, so the generic registry (`discovery/capability/`) knows nothing of hooks.
 */
export const defaultRegistry: CapabilityRegistry = new CapabilityRegistry({ hooks: (registry) => registerHookDiscovery(registry) });

/** {@link CapabilityRegistry.defineCapability} on the default registry. */
export function defineCapability<T>(definition: CapabilityDefinition<T>): CapabilityDefinition<T> {
	return defaultRegistry.defineCapability(definition);
}

/** {@link CapabilityRegistry.registerProvider} on the default registry. */
export function registerProvider<T>(capabilityId: string, provider: ProviderDefinition<T>): ProviderDefinition<T> {
	return defaultRegistry.registerProvider(capabilityId, provider);
}

/** {@link CapabilityRegistry.loadCapability} on the default registry. */
export function loadCapability<T>(id: string, options: LoadCapabilityOptions): Promise<CapabilityResult<T>> {
	return defaultRegistry.loadCapability<T>(id, options);
}
