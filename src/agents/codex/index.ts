import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { codexHookFolders } from "./hook-folders.ts";
import { CODEX } from "./protocol.ts";

/** Codex CLI: everything the project knows of it, loaded part by part as a call needs it. */
export const codex: AgentDescriptor = {
	name: CODEX.name,
	label: CODEX.label,
	timeoutSeconds: CODEX.timeoutSeconds,
	projectVariable: CODEX.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.codexBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).codexInstall,
	hookFolders: codexHookFolders,
	ownHooks: {
		providerId: "codex-hooks",
		displayName: "Codex hooks.json",
		description: "Command hooks in .codex/hooks.json and ~/.codex/hooks.json",
		priority: 55,
		layout: "grouped",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".codex", "hooks.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".codex", "hooks.json") },
		],
		timeoutUnitMs: CODEX.timeoutUnitMs,
		defaultTimeoutMs: CODEX.defaultTimeoutMs,
		matchMode: CODEX.matchMode,
		projectVariables: [],
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).codexDialect,
	},
};
