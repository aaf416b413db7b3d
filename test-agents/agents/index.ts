import { auggieDriver } from "./auggie.ts";
import { claudeDriver } from "./claude.ts";
import { clineDriver } from "./cline.ts";
import { codexDriver } from "./codex.ts";
import { copilotDriver } from "./copilot.ts";
import { droidDriver } from "./droid.ts";
import { geminiDriver } from "./gemini.ts";
import { kiloDriver } from "./kilo.ts";
import { opencodeDriver } from "./opencode.ts";
import { openclawDriver } from "./openclaw.ts";
import { piDriver } from "./pi.ts";
import { qwenDriver } from "./qwen.ts";
import type { AgentDriver } from "./types.ts";

/** Every agent the real-client suite drives, in run order: one line per agent (its driver holds the rest). */
export const DRIVERS: readonly AgentDriver[] = [
	claudeDriver,
	codexDriver,
	geminiDriver,
	copilotDriver,
	qwenDriver,
	droidDriver,
	auggieDriver,
	clineDriver,
	opencodeDriver,
	kiloDriver,
	piDriver,
	openclawDriver,
];

/** The driver of `id`. */
export function findDriver(id: string): AgentDriver | undefined {
	return DRIVERS.find((driver) => driver.id === id);
}
