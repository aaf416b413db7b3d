/** `xcsh-hooks/testing`: load one hook into a real runner with a scripted UI and recording host handlers. */
import { handPackageRoot, type PackageRoot } from "../hooks/package-root.ts";

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

// The hooks a harness loads read the package root as `pi.pi`, required when one first does.
handPackageRoot(() => require("../index.ts") as PackageRoot);
