/** `xcsh-hooks/testing`: load one hook into a real runner with a scripted UI and recording host handlers. */
export {
	createHookHarness,
	type HookHarness,
	type HookHarnessOptions,
	type RecordedEntry,
	type RecordedMessage,
	type ToolCallOutcome,
	type ToolResultOptions,
	type ToolResultOutcome,
} from "./harness.ts";
export {
	createScriptedUIContext,
	type RecordedNotification,
	type RecordedPrompt,
	type ScriptedUI,
	type ScriptedUIAnswers,
	type UIRecording,
} from "./scripted-ui.ts";
