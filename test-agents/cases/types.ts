import type { Checks } from "../checks.ts";
import type { AgentId } from "../pins.ts";

/** What a case gets from the runner. */
export interface CaseContext {
	/** The agent's executable in the cache. */
	bin: string;
	/** Milliseconds one agent process may run before it is killed. */
	timeoutMs: number;
	/** Keep the sandbox folder for inspection. */
	keep: boolean;
	/** The compiled xcsh-hooks executable with a working `bridge`, or why there is none. */
	bridge: { exe: string } | { missing: string };
	/** Prints a progress line. */
	log(line: string): void;
}

/** One test of the suite. */
export interface AgentCase {
	agent: AgentId;
	name: string;
	/** Needs a working `xcsh-hooks bridge`: skipped with its reason when there is none. */
	needsBridge: boolean;
	run(ctx: CaseContext, checks: Checks): Promise<void>;
}
