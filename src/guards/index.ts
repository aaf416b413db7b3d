/** `xcsh-hooks/guards`: a destructive-command guard that reads the shell, with typed rule packs. */
export { type ShellGuard, type ShellGuardOptions, createShellGuard } from "./guard.ts";
export { hasFlag, type OptionSpec, type ParsedOptions, parseOptions } from "./options.ts";
export {
	cloudPack,
	containersPack,
	DEFAULT_PACKS,
	databasesPack,
	filesystemPack,
	gitPack,
	PACKS,
	type PackName,
	shellPack,
} from "./packs/index.ts";
export { gitSubcommand } from "./packs/git.ts";
export { loadShellParser } from "./parser.ts";
export type {
	CodeDelete,
	RuleAnswer,
	RuleContext,
	RuleMatch,
	RulePack,
	ShellCommand,
	ShellDecision,
	ShellExplanation,
	ShellGuardSummary,
	ShellRule,
	ShellVerdict,
} from "./types.ts";
