import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { claudeHookFolders } from "./hook-folders.ts";
import { CLAUDE } from "./protocol.ts";

/** Claude Code: everything the project knows of it, loaded part by part as a call needs it. */
export const claude: AgentDescriptor = {
	name: CLAUDE.name,
	label: CLAUDE.label,
	timeoutSeconds: CLAUDE.timeoutSeconds,
	projectVariable: CLAUDE.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.claudeBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).claudeInstall,
	hookFolders: claudeHookFolders,
	ownHooks: {
		providerId: "claude-settings",
		displayName: "Claude Code settings",
		description: "Command hooks in .claude/settings(.local).json and ~/.claude/settings.json",
		priority: 60,
		layout: "grouped",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".claude", "settings.local.json"), projectDir: cwd },
			{ level: "project", file: join(cwd, ".claude", "settings.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".claude", "settings.json") },
		],
		timeoutUnitMs: CLAUDE.timeoutUnitMs,
		defaultTimeoutMs: CLAUDE.defaultTimeoutMs,
		matchMode: CLAUDE.matchMode,
		projectVariables: ["CLAUDE_PROJECT_DIR"],
		quirks: { execForm: true },
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).claudeDialect,
	},
};
