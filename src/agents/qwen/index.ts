import { join } from "pathe";
import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { QWEN } from "./protocol.ts";

/** Qwen Code: everything the project knows of it, loaded part by part as a call needs it. */
export const qwen: AgentDescriptor = {
	name: QWEN.name,
	label: QWEN.label,
	timeoutSeconds: QWEN.timeoutSeconds,
	projectVariable: QWEN.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.qwenBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).qwenInstall,
	ownHooks: {
		providerId: "qwen-settings",
		displayName: "Qwen Code settings",
		description: "Command hooks in .qwen/settings.json and ~/.qwen/settings.json",
		priority: 48,
		layout: "grouped",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".qwen", "settings.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".qwen", "settings.json") },
		],
		timeoutUnitMs: QWEN.timeoutUnitMs,
		defaultTimeoutMs: QWEN.defaultTimeoutMs,
		matchMode: QWEN.matchMode,
		projectVariables: ["QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"],
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).qwenDialect,
	},
};
