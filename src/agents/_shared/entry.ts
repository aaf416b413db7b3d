/** The agents whose existing command hooks run as hooks of ours. */
export type AgentId = string;

import type { EVENTS } from "../../hooks/events.ts";

/** The events of ours an agent's hook event becomes: the table's entries with `commandHooks`. */
export type AgentHookTarget = {
	[K in keyof typeof EVENTS]: (typeof EVENTS)[K] extends { commandHooks: true } ? K : never;
}[keyof typeof EVENTS];

/**
 * One command entry of an agent's hook configuration, as discovery read it. Everything that decides
 * what runs is here (and in {@link raw}, which is what an approval hashes): the command text, its
 * exec-form arguments, the matcher, the timeout.
 */
export interface AgentHookEntry {
	agent: AgentId;
	/** Absolute path of the settings file. */
	file: string;
	/** Where the entry sits in that file, e.g. `hooks.PreToolUse[0].hooks[1]` (warnings and paths name it). */
	key: string;
	/** The agent's event name, as its config spells it (`PreToolUse`, `BeforeTool`, `preToolUse`). */
	event: string;
	/** Our event it runs on. */
	target: AgentHookTarget;
	/** The agent's matcher; absent, `""` and `*` match everything. */
	matcher?: string;
	/** The command: a shell command line, or the program when {@link args} is given (Claude's exec form). */
	command: string;
	/** Claude's exec form: argv after the program, run without a shell. */
	args?: string[];
	/** Claude's `shell: "bash"`: run the command with bash instead of sh. */
	shell?: string;
	/** The entry's own timeout, converted from the agent's unit to milliseconds. */
	timeoutMs?: number;
	/** Directory the command runs in when not the project's (Cursor user hooks run from `~/.cursor`). */
	runDir?: string;
	/** Project-level entries: the project the file belongs to (scripts inside it are part of an approval). */
	projectDir?: string;
	/** The entry as written (matcher plus handler object): the canonical JSON of this is approved. */
	raw: Record<string, unknown>;
}
