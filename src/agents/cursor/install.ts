import { cursorEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { CURSOR } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S } from "../_shared/install-spec.ts";

export const cursorInstall: AgentSpec = {
	id: CURSOR.name,
	label: CURSOR.label,
	file: (_scope, dir) => join(dir, ".cursor", "hooks.json"),
	layout: "flat",
	commandKey: "command",
	base: { version: 1 },
	events: installEvents(cursorEvents, [
		{ name: "preToolUse", guard: true },
		{ name: "postToolUse" },
		{ name: "beforeSubmitPrompt", guard: true },
		{ name: "sessionStart" },
		{ name: "sessionEnd" },
		{ name: "preCompact" },
		{ name: "stop" },
	]),
	// `failClosed` is Cursor's switch for "a crash, timeout or invalid JSON blocks" (docs/agents/cursor.md).
	handler: (event, command) => ({ command, timeout: TIMEOUT_S, ...(event.guard ? { failClosed: true } : {}) }),
	// Cursor's enterprise hooks file (conflict priority: enterprise before team, project and user).
	managed: {
		files: {
			linux: "/etc/cursor/hooks.json",
			darwin: "/Library/Application Support/Cursor/hooks.json",
			win32: "C:\\ProgramData\\Cursor\\hooks.json",
		},
		notes: ["Cursor runs enterprise hooks beside the others and has no managed-hooks-only switch."],
	},
	notes: (scope) => (scope === "project" ? ["Cursor runs project hooks only in a trusted workspace."] : []),
};
