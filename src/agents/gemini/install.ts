import { geminiEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { GEMINI } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S } from "../_shared/install-spec.ts";

export const geminiInstall: AgentSpec = {
	id: GEMINI.name,
	label: GEMINI.label,
	file: (_scope, dir) => join(dir, ".gemini", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(geminiEvents, [
		{ name: "BeforeTool", matcher: "*" },
		{ name: "AfterTool", matcher: "*" },
		{ name: "BeforeAgent" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompress" },
		{ name: "AfterAgent" },
	]),
	// `name` is what Gemini shows in its project-hook warning and part of its dedup key.
	handler: (_event, command) => ({ type: "command", name: "xcsh-hooks", command, timeout: (TIMEOUT_S * 1000) / GEMINI.timeoutUnitMs }),
	// Gemini CLI's system settings (GEMINI_CLI_SYSTEM_SETTINGS_PATH moves them; the note says so).
	managed: {
		files: {
			linux: "/etc/gemini-cli/settings.json",
			darwin: "/Library/Application Support/GeminiCli/settings.json",
			win32: "C:\\ProgramData\\gemini-cli\\settings.json",
		},
		notes: [
			"Gemini CLI merges system hooks with the user's and the project's and has no managed-hooks-only switch; a user can still add hooks, not remove these.",
			"Gemini CLI reads GEMINI_CLI_SYSTEM_SETTINGS_PATH instead of this file when that variable is set.",
		],
	},
	notes: (scope) =>
		scope === "project" ? ["Gemini runs project hooks only in a trusted workspace (headless: GEMINI_CLI_TRUST_WORKSPACE=true)."] : [],
};
