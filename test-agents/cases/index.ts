import { DRIVERS } from "../agents/index.ts";
import { mcpCase, subagentCase } from "./actor-cases.ts";
import { askCase, permissionCase, pluginAskCase } from "./ask-cases.ts";
import { claudeTuiAskCase } from "./ask-tui.ts";
import { auggieCases } from "./auggie-cases.ts";
import {
	bridgeCase,
	bridgeHookFlagCase,
	controlCase,
	initInstallCase,
	loadErrorCase,
	selfCheckCase,
	subfolderCase,
} from "./agent-cases.ts";
import { hostileEnvCase } from "./hostile-env.ts";
import { managedCase } from "./managed.ts";
import { pluginLoadErrorCase, pluginSuiteCase, pluginUserInstallCase } from "./plugin-cases.ts";
import { readmeCase } from "./readme-case.ts";
import type { AgentCase } from "./types.ts";

/** Every case in run order: per agent the control and self-check first, so a harness fault shows before a bridge fault. */
export const CASES: AgentCase[] = DRIVERS.flatMap((driver) =>
	driver.inProcess
		? // In-process agents: no command hooks, so no control or self-check of a hook protocol; the plugin cases.
			[initInstallCase(driver), pluginSuiteCase(driver), pluginLoadErrorCase(driver), pluginUserInstallCase(driver), pluginAskCase(driver)]
		: [
				controlCase(driver),
				selfCheckCase(driver),
				bridgeCase(driver),
				bridgeHookFlagCase(driver),
				// Started in a subfolder of the guarded project: the agents whose runs showed the hole, and the two most used.
				...(driver.id === "codex" || driver.id === "claude" || driver.id === "gemini" ? [subfolderCase(driver)] : []),
				...(driver.installAlone ? [initInstallCase(driver)] : []),
				...(driver.loadErrorCase ? [loadErrorCase(driver)] : []),
				...(driver.actor?.spawn ? [subagentCase(driver)] : []),
				...(driver.actor?.mcp ? [mcpCase(driver)] : []),
				...(driver.id === "claude" || driver.id === "codex" || driver.id === "gemini" ? [managedCase(driver)] : []),
				...(driver.id === "codex" ? [managedCase(driver, "codex-plain")] : []),
				...(driver.id === "claude" || driver.id === "gemini" ? [hostileEnvCase(driver)] : []),
				// A new user following the README alone, from a clean clone to a guard in Claude Code.
				...(driver.id === "claude" ? [readmeCase(driver)] : []),
				...(driver.id === "auggie" ? auggieCases(driver) : []),
				askCase(driver),
				...(driver.id === "claude" ? [claudeTuiAskCase(driver)] : []),
				...(driver.id === "claude" || driver.id === "copilot" ? [permissionCase(driver)] : []),
			],
);
