/** The hooks surface (`xcsh-hooks/hooks`): loading, runner, tool wrapper, hook types and exec. */
export { createHookAPI, loadHookFromFactory, loadHooks, type LoadHooksOptions } from "./loader.ts";
export { HookRunner, type HookRunnerInitOptions, type HookRunnerOptions } from "./runner.ts";
export { applyToolResult, gateToolCall, HookToolWrapper, ToolBlockedError, type ToolCallGate } from "./tool-wrapper.ts";
export {
	createShellHookFactory,
	DEFAULT_SHELL_HOOK_TIMEOUT_MS,
	inferShellHookSpec,
	isModulePath,
	type ShellHookSpec,
} from "./shell-hook.ts";
export { HOOK_EVENT_TYPES, HookEventSchemas, HookResultSchemas } from "./schemas.ts";
export { isHookEventType, validateEvent, validateResult, validateValue, type ValidationResult } from "./validate.ts";
export { defineHook } from "./define.ts";
export { execCommand, type ExecOptions, type ExecResult } from "../exec/exec-command.ts";
export type * from "./types.ts";
export {
	discoverAndLoadHooks,
	type DiscoverAndLoadOptions,
	type DiscoverAndLoadResult,
	type SkippedHook,
} from "./discover.ts";
