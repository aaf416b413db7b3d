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
	// Gemini CLI's system settings (GEMINI_CLI_SYSTEM_SETTINGS_PATH moves them; the note says so). They
	// override the user's and the trusted project's scalars, so `hooksConfig.enabled` is pinned there; the
	// list `hooksConfig.disabled` is merged from every file (a union) and matches an entry by its name, so
	// a user or a trusted project can still switch ours off (Gemini CLI 0.61's settings merge).
	managed: {
		files: {
			linux: "/etc/gemini-cli/settings.json",
			darwin: "/Library/Application Support/GeminiCli/settings.json",
			win32: "C:\\ProgramData\\gemini-cli\\settings.json",
		},
		pin: "hooksConfig.enabled",
		userSwitchOff:
			'a user or a trusted project can still switch the managed entries off: Gemini CLI merges "hooksConfig.disabled" from every settings file and skips a hook it lists by name ("xcsh-hooks"), runs no settings hooks at all (the system file\'s included) in a folder it does not trust (GEMINI_CLI_TRUST_WORKSPACE=false makes any folder untrusted), and reads another system file when GEMINI_CLI_SYSTEM_SETTINGS_PATH names one',
		notes: [
			"\"hooksConfig.enabled\": true is pinned in the system settings, which override the user's and the project's.",
			"Gemini CLI reads GEMINI_CLI_SYSTEM_SETTINGS_PATH instead of this file when that variable is set.",
		],
	},
	notes: (scope) =>
		scope === "project" ? ["Gemini runs project hooks only in a trusted workspace (headless: GEMINI_CLI_TRUST_WORKSPACE=true)."] : [],
};
