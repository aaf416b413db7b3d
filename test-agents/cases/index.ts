import { DRIVERS } from "../agents/index.ts";
import { mcpCase, subagentCase } from "./actor-cases.ts";
import { bridgeCase, bridgeHookFlagCase, controlCase, initInstallCase, selfCheckCase } from "./agent-cases.ts";
import type { AgentCase } from "./types.ts";

/** Every case in run order: per agent the control and self-check first, so a harness fault shows before a bridge fault. */
export const CASES: AgentCase[] = DRIVERS.flatMap((driver) => [
	controlCase(driver),
	selfCheckCase(driver),
	bridgeCase(driver),
	bridgeHookFlagCase(driver),
	...(driver.installAlone ? [initInstallCase(driver)] : []),
	...(driver.actor?.spawn ? [subagentCase(driver)] : []),
	...(driver.actor ? [mcpCase(driver)] : []),
]);
