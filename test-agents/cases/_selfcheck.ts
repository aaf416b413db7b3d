import { join } from "node:path";
import type { Markers } from "../scenario.ts";

const DIR = join(import.meta.dir, "..", "fixtures", "selfcheck");

/** Absolute paths of the hand-written self-check hooks. */
export const SELFCHECK = {
	/** `deny.sh <log> <answer>`: prints the answer when stdin mentions `rm -rf`. */
	deny: join(DIR, "deny.sh"),
	/** `answer.sh <log> <answer>`: always prints the answer. */
	answer: join(DIR, "answer.sh"),
	/** `bun redact.ts <log> <agent>`: redacts `API_KEY=…` in the agent's own form. */
	redact: join(DIR, "redact.ts"),
};

/** The markers the self-check hooks put into the conversation. */
export function selfcheckMarkers(): Markers {
	return { deny: "SELFCHECK-DENY: rm -rf is not allowed", context: "SELFCHECK-CONTEXT: the deploy window is closed" };
}

/** `s` quoted for a POSIX shell. */
export function sh(s: string): string {
	return `'${s.replaceAll("'", "'\\''")}'`;
}
