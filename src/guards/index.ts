/** `xcsh-hooks/guards`: a destructive-command guard that reads the shell, with typed rule packs. */
export { createFileGuard, type FileDecision, type FileGuard, type FileGuardOptions, filesPack } from "./files.ts";
export { type ShellGuard, type ShellGuardOptions, createShellGuard } from "./guard.ts";
export { hasFlag, type OptionSpec, type ParsedOptions, parseOptions } from "./options.ts";
export {
	backupPack,
	ciPack,
	cloudPack,
	containersPack,
	DEFAULT_PACKS,
	databasesPack,
	filesystemPack,
	gitPack,
	hostingPack,
	messagingPack,
	PACKS,
	type PackName,
	privilegePack,
	rsyncPack,
	searchPack,
	secretsPack,
	shellPack,
	storagePack,
	windowsPack,
} from "./packs/index.ts";
export { gitSubcommand } from "./packs/git.ts";
export { loadShellParser } from "./parser.ts";
export type {
	CodeDelete,
	EnvValue,
	NestedRun,
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
