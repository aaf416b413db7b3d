import { qwenEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { QWEN } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S } from "../_shared/install-spec.ts";

/** `hooks` in `.qwen/settings.json` / `~/.qwen/settings.json`, Claude's grouped shape, timeouts in seconds. */
export const qwenInstall: AgentSpec = {
	id: QWEN.name,
	label: QWEN.label,
	file: (_scope, dir) => join(dir, ".qwen", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(qwenEvents, [
		{ name: "PreToolUse", matcher: "*" },
		{ name: "PostToolUse", matcher: "*" },
		{ name: "PermissionRequest", matcher: "*" },
		{ name: "UserPromptSubmit" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
	]),
	handler: (_event, command) => ({ type: "command", name: "xcsh-hooks", command, timeout: (TIMEOUT_S * 1000) / QWEN.timeoutUnitMs }),
	notes: (scope) =>
		scope === "project"
			? [
					"Qwen Code skips project hooks in an untrusted folder when folder trust is on (it is off by default); --safe-mode, --bare and disableAllHooks turn hooks off.",
				]
			: [],
};
