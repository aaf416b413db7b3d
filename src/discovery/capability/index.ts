/**
 * The capability registry (docs/contract.md#the-capability-registry): generic, knows nothing of hooks. The hooks capability, the shared
 * default registry and its module-level functions (`loadCapability`…) are in src/discovery.
 */
export {
	type BuiltinCapabilities,
	type CapabilityDefinition,
	type CapabilityItem,
	CapabilityRegistry,
	type CapabilityResult,
	type LoadCapabilityOptions,
	type LoadContext,
	type LoadResult,
	type ProviderDefinition,
	type ProviderSummary,
	type WatchedPlaces,
} from "./registry.ts";
