import { claudeDriver } from "../agents/claude.ts";
import { codexDriver } from "../agents/codex.ts";
import { copilotDriver } from "../agents/copilot.ts";
import { geminiDriver } from "../agents/gemini.ts";
import { bridgeCase, bridgeHookFlagCase, controlCase, initInstallCase, selfCheckCase } from "./agent-cases.ts";
import type { AgentCase } from "./types.ts";

/** Every case in run order: per agent the control and self-check first, so a harness fault shows before a bridge fault. */
export const CASES: AgentCase[] = [claudeDriver, codexDriver, geminiDriver, copilotDriver].flatMap((driver) => [
	controlCase(driver),
	selfCheckCase(driver),
	bridgeCase(driver),
	bridgeHookFlagCase(driver),
	// Claude Code's settings need nothing beyond what `install` writes; the other agents need their own trust steps.
	...(driver.id === "claude" ? [initInstallCase(driver)] : []),
]);
