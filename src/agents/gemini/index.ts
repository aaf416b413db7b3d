import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { GEMINI } from "./protocol.ts";

/** Gemini CLI: everything the project knows of it, loaded part by part as a call needs it. */
export const gemini: AgentDescriptor = {
	name: GEMINI.name,
	label: GEMINI.label,
	timeoutSeconds: GEMINI.timeoutSeconds,
	projectVariable: GEMINI.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.geminiBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).geminiInstall,
	ownHooks: {
		providerId: "gemini-settings",
		displayName: "Gemini CLI settings",
		description: "Command hooks in .gemini/settings.json and ~/.gemini/settings.json",
		priority: 50,
		layout: "grouped",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".gemini", "settings.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".gemini", "settings.json") },
		],
		timeoutUnitMs: GEMINI.timeoutUnitMs,
		defaultTimeoutMs: GEMINI.defaultTimeoutMs,
		matchMode: GEMINI.matchMode,
		projectVariables: ["GEMINI_PROJECT_DIR", "GEMINI_CWD"],
		quirks: { controlKeys: ["enabled", "disabled", "notifications"], enabledSwitch: true, bashWhenAvailable: true },
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).geminiDialect,
	},
};
