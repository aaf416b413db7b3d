import { droidEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { DROID } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S } from "../_shared/install-spec.ts";

/**
 * `hooks` in `.factory/settings.json` / `~/.factory/settings.json`. Droid also reads a bare event map in
 * `hooks.json`, but silently ignores one wrapped in `{"hooks": …}` (docs/agents/droid.md): the settings file
 * has one shape that works, the one every other Claude-style agent uses, and it is where users look.
 */
export const droidInstall: AgentSpec = {
	id: DROID.name,
	label: DROID.label,
	file: (_scope, dir) => join(dir, ".factory", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(droidEvents, [
		{ name: "PreToolUse", matcher: "*" },
		{ name: "PostToolUse", matcher: "*" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
	]),
	handler: (_event, command) => ({ type: "command", command, timeout: (TIMEOUT_S * 1000) / DROID.timeoutUnitMs }),
	notes: () => [],
};
