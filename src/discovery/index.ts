/** Discovery (docs/contract.md#discovery): the hooks capability, its providers, layered settings, and discover-and-load. */
export { type Hook, hookCapability, hookExtensionId, hookKey, type HookLevel, type HookType, validateHook } from "./hooks-capability.ts";
export { claudeProvider } from "./claude.ts";
export { classifyCodexHook, codexProvider } from "./codex.ts";
export { nativeProvider } from "./native.ts";
export { defaultRegistry, defineCapability, hookProviders, loadCapability, registerHookDiscovery, registerProvider } from "./register.ts";
export {
	type LoadSettingsOptions,
	type LoadSettingsResult,
	loadSettings,
	projectSettingsPath,
	readSettingsFile,
	type SettingsHookPath,
	userSettingsPath,
} from "./settings.ts";
export { type Settings, SettingsSchema } from "./settings-schema.ts";
export {
	type DiscoverAndLoadOptions,
	type DiscoverAndLoadResult,
	discoverAndLoadHooks,
	type HookPlan,
	type PlannedHook,
	planHooks,
	type SkippedHook,
} from "./discover.ts";
export { approveHook, type CoveredCheck, coveredFiles, verifyCovered } from "./covered.ts";
