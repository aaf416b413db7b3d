/** The capability registry (SPEC §8.1): generic, knows nothing of hooks; the hooks capability is in src/discovery. */
export {
	type BuiltinCapabilities,
	type CapabilityDefinition,
	type CapabilityItem,
	CapabilityRegistry,
	type CapabilityResult,
	defaultRegistry,
	defineCapability,
	type LoadCapabilityOptions,
	type LoadContext,
	type LoadResult,
	loadCapability,
	type ProviderDefinition,
	type ProviderSummary,
	registerProvider,
	type WatchedPlaces,
} from "./registry.ts";
