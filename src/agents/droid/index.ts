import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { DROID } from "./protocol.ts";

/** Factory Droid: everything the project knows of it, loaded part by part as a call needs it. */
export const droid: AgentDescriptor = {
	name: DROID.name,
	label: DROID.label,
	timeoutSeconds: DROID.timeoutSeconds,
	projectVariable: DROID.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.droidBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).droidInstall,
	ownHooks: {
		providerId: "droid-settings",
		displayName: "Factory Droid settings",
		description: "Command hooks in .factory/settings.json and ~/.factory/settings.json",
		priority: 47,
		layout: "grouped",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".factory", "settings.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".factory", "settings.json") },
		],
		timeoutUnitMs: DROID.timeoutUnitMs,
		defaultTimeoutMs: DROID.defaultTimeoutMs,
		matchMode: DROID.matchMode,
		projectVariables: ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).droidDialect,
	},
};
