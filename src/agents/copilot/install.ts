import { copilotEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { COPILOT } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S, homeOverride } from "../_shared/install-spec.ts";

// PascalCase keys: their payloads carry `hook_event_name`, so one `bridge copilot` command serves every
// event (camelCase payloads name no event, A.4). Copilot has no PascalCase pre-compact event. The one
// exception, SubagentStart (no event name in 1.0.102), is recognised by its fields.
export const copilotInstall: AgentSpec = {
	id: COPILOT.name,
	label: COPILOT.label,
	file: (scope, dir) =>
		scope === "project" ? join(dir, ".github", "hooks", "xcsh-hooks.json") : join(dir, ".copilot", "hooks", "xcsh-hooks.json"),
	layout: "flat",
	commandKey: "bash",
	base: { version: 1 },
	events: installEvents(copilotEvents, [
		{ name: "PreToolUse" },
		{ name: "PostToolUse" },
		{ name: "PermissionRequest" },
		{ name: "UserPromptSubmit" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "Stop" },
		{ name: "SubagentStart" },
		{ name: "SubagentStop" },
	]),
	handler: (_event, command) => ({ type: "command", bash: command, timeoutSec: TIMEOUT_S }),
	notes: (scope, dir) =>
		scope === "user"
			? homeOverride(scope, "COPILOT_HOME", join(dir, ".copilot"), "hooks/xcsh-hooks.json")
			: ["Copilot loads project hooks in prompt mode (-p) only with --trust-folder (or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true)."],
};
