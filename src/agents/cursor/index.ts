import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { CURSOR } from "./protocol.ts";

/** Cursor: everything the project knows of it, loaded part by part as a call needs it. */
export const cursor: AgentDescriptor = {
	name: CURSOR.name,
	label: CURSOR.label,
	timeoutSeconds: CURSOR.timeoutSeconds,
	projectVariable: CURSOR.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.cursorBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).cursorInstall,
	ownHooks: {
		providerId: "cursor-hooks",
		displayName: "Cursor hooks.json",
		description: "Command hooks in .cursor/hooks.json and ~/.cursor/hooks.json",
		priority: 45,
		layout: "flat",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".cursor", "hooks.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".cursor", "hooks.json"), runDir: join(home, ".cursor") },
		],
		timeoutUnitMs: CURSOR.timeoutUnitMs,
		defaultTimeoutMs: CURSOR.defaultTimeoutMs,
		matchMode: CURSOR.matchMode,
		projectVariables: ["CURSOR_PROJECT_DIR"],
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).cursorDialect,
	},
};
