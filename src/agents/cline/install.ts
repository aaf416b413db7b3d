import { clineEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { CLINE } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, scriptMarker } from "../_shared/install-spec.ts";

/**
 * One executable per event in `.clinerules/hooks/` (project) or `~/.cline/hooks/` (user), each only
 * running the bridge for its event. Cline has no timeout setting (it waits 120 s); the bridge answers
 * by itself well before.
 */
export const clineInstall: AgentSpec = {
	id: CLINE.name,
	label: CLINE.label,
	file: (scope, dir) => (scope === "project" ? join(dir, ".clinerules", "hooks") : join(dir, ".cline", "hooks")),
	layout: "files",
	commandKey: "command",
	base: {},
	events: installEvents(clineEvents, [
		{ name: "PreToolUse" },
		{ name: "PostToolUse" },
		{ name: "UserPromptSubmit" },
		{ name: "TaskStart" },
		{ name: "TaskComplete" },
		{ name: "SessionShutdown" },
	]),
	script: (event, command) => `#!/bin/sh\n${scriptMarker(CLINE.name)}\nexec ${command} --event ${event.name}\n`,
	handler: (_event, command) => ({ command }),
	notes: () => [],
};
