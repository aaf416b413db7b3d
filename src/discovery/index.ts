/** Discovery (docs/contract.md#discovery): the hooks capability, its providers, layered settings, and discover-and-load. */
import { hookFolderProvider } from "./agent-folders.ts";

export { type Hook, hookCapability, hookExtensionId, hookKey, type HookLevel, type HookType, validateHook } from "./hooks-capability.ts";
export { hookFolderProvider, hookFolderProviders } from "./agent-folders.ts";
export { classifyPrefixed as classifyCodexHook } from "../agents/_shared/hook-folders.ts";
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

/** The `.claude/hooks/{pre,post}` folders' provider (declared in src/agents/claude/hook-folders.ts). */
export const claudeProvider = hookFolderProvider("claude");
/** The `.codex/hooks` folders' provider (declared in src/agents/codex/hook-folders.ts). */
export const codexProvider = hookFolderProvider("codex");
