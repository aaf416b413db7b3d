import type { PackName } from "../../../src/guards/index.ts";

/** One corpus case: a command line and the verdict it must get (the rule, when it is blocked). */
export interface GuardCase {
	command: string;
	/** `true`: must be blocked (by a rule whose id starts with `rule`, when given). */
	block: boolean;
	rule?: string;
	/** Extra packs on top of the defaults. */
	packs?: PackName[];
}

export const blocks = (rule: string, commands: readonly string[]): GuardCase[] =>
	commands.map((command) => ({ command, block: true, rule }));
export const allows = (commands: readonly string[]): GuardCase[] => commands.map((command) => ({ command, block: false }));
