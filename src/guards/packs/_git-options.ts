/**
 * A subcommand's options read the way git's parse-options reads them: a long option may be
 * abbreviated to any prefix only it has (`--har` is `--hard`), `--no-X` negates, values are taken
 * apart or with `=`, short flags cluster (`-fdx`) and a flag that takes a value eats the rest of its
 * cluster or the next word (`-e -n`: `-n` is the pattern). An abbreviation two options share is an
 * error to git; here it reads as every option it could be, so a rule errs on the side of blocking.
 */

/** One option of a subcommand: `force` with `-f`; `=`: it takes a value; `?`: only as `--name=value`. */
interface GitOption {
	long?: string;
	short?: string;
	value?: "required" | "optional";
}

/** What parse-options made of a subcommand's arguments. */
export interface GitOptions {
	/** Each option given, in order: its long name (or letter), whether negated, its value. */
	given: Array<{ name: string; negated: boolean; value?: string | undefined }>;
	/** Everything before `--` that is not an option. */
	positionals: string[];
	/** What follows `--` (paths only), `undefined` when there is no `--`. */
	paths: string[] | undefined;
	/** `-h`/`--help`: git prints the usage and runs nothing. */
	help: boolean;
}

/** Table text: `"f|force q|quiet e|exclude= d x X"`; `=` a value, `?` an optional value (only with `=`). */
function table(text: string): GitOption[] {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((spec) => {
			const value = spec.endsWith("=") ? "required" : spec.endsWith("?") ? "optional" : undefined;
			const body = value ? spec.slice(0, -1) : spec;
			const [a = "", b] = body.split("|");
			const option: GitOption = a.length === 1 ? { short: a, ...(b ? { long: b } : {}) } : { long: a };
			if (value) option.value = value;
			return option;
		});
}

/** The options of the subcommands the git pack judges (git 2.4x). */
export const GIT_OPTIONS: Record<string, GitOption[]> = {
	reset: table(
		"q|quiet refresh mixed soft hard merge keep recurse-submodules? p|patch N|intent-to-add pathspec-from-file= pathspec-file-nul U|unified= inter-hunk-context=",
	),
	clean: table("q|quiet n|dry-run f|force i|interactive d e|exclude= x X"),
	checkout: table(
		"q|quiet progress b= B= l detach t|track? guess orphan= 2|ours 3|theirs f|force m|merge overwrite-ignore conflict= p|patch ignore-skip-worktree-bits ignore-other-worktrees recurse-submodules? overlay pathspec-from-file= pathspec-file-nul",
	),
	restore: table(
		"s|source= S|staged W|worktree ignore-unmerged overlay q|quiet recurse-submodules? progress m|merge conflict= 2|ours 3|theirs p|patch ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul",
	),
	switch: table(
		"c|create= C|force-create= detach t|track? guess orphan= f|force discard-changes m|merge conflict= q|quiet progress recurse-submodules? ignore-other-worktrees",
	),
	push: table(
		"v|verbose q|quiet repo= all branches mirror d|delete tags n|dry-run porcelain f|force force-with-lease? force-if-includes recurse-submodules= thin receive-pack= exec= u|set-upstream progress prune no-verify follow-tags signed? atomic o|push-option= 4|ipv4 6|ipv6",
	),
	branch: table(
		"v|verbose q|quiet t|track? set-upstream u|set-upstream-to= unset-upstream color? r|remotes contains? no-contains? with? without? abbrev? a|all d|delete D m|move M c|copy C column? l|list show-current create-reflog edit-description f|force merged? no-merged? points-at= sort= format= i|ignore-case omit-empty recurse-submodules",
	),
	rm: table("n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-from-file= pathspec-file-nul"),
	"read-tree": table(
		"index-output= empty v m reset trivial aggressive u i n|dry-run prefix= exclude-per-directory= sparse-checkout debug-unpack recurse-submodules? q|quiet",
	),
	"checkout-index": table("a|all ignore-skip-worktree-bits f|force q|quiet n|no-create u|index z stdin temp prefix= stage="),
	rebase: table(
		"onto= keep-base no-verify q|quiet v|verbose n|no-stat signoff committer-date-is-author-date reset-author-date C= ignore-whitespace whitespace= f|force-rebase ff continue skip abort quit edit-todo show-current-patch apply m|merge i|interactive rerere-autoupdate empty= autosquash S|gpg-sign? autostash x|exec= r|rebase-merges? fork-point s|strategy= X|strategy-option= root reschedule-failed-exec reapply-cherry-picks update-refs keep-empty stat",
	),
	worktree: table("f|force"),
	gc: table("prune? aggressive auto quiet force keep-largest-pack cruft max-cruft-size= expire-to= detach"),
	stash: table("q|quiet"),
	reflog: table("expire= expire-unreachable= rewrite updateref stale-fix n|dry-run verbose all single-worktree"),
	"update-ref": table("m= d no-deref create-reflog stdin z"),
	difftool: table("x|extcmd= t|tool= y|no-prompt prompt d|dir-diff g|gui trust-exit-code symlinks"),
	submodule: table("q|quiet cached recursive"),
	config: table(
		"global system local worktree f|file= blob= get get-all get-regexp get-urlmatch replace-all add unset unset-all rename-section remove-section l|list fixed-value t|type= bool int bool-or-int path expiry-date no-type z|null name-only show-origin show-scope default= e|edit includes comment= value= all regexp url=",
	),
};

/** The long options `arg` (without `--`, without `=value`) may name: exact first, else every unique prefix. */
function longMatches(options: GitOption[], name: string): Array<{ option: GitOption; negated: boolean }> {
	const exact: Array<{ option: GitOption; negated: boolean }> = [];
	const prefix: Array<{ option: GitOption; negated: boolean }> = [];
	for (const option of options) {
		const long = option.long;
		if (!long) continue;
		// A name that starts with `no-` is also given positively (`--verify` for `no-verify`).
		const forms: Array<[string, boolean]> = [
			[long, false],
			[`no-${long}`, true],
		];
		if (long.startsWith("no-")) forms.push([long.slice(3), true]);
		for (const [form, negated] of forms) {
			if (form === name) exact.push({ option, negated });
			else if (form.startsWith(name)) prefix.push({ option, negated });
		}
	}
	if (exact.length > 0) return exact.slice(0, 1);
	// `--no-` alone, or a prefix shared by a name and its own negation, is no option.
	const distinct = new Map<GitOption, { option: GitOption; negated: boolean }>();
	for (const match of prefix) if (!distinct.has(match.option)) distinct.set(match.option, match);
	return [...distinct.values()];
}

/**
 * Parses a subcommand's arguments against its option table; an option it does not know is read
 * as a flag without a value (git would refuse it, so nothing it implies runs).
 */
export function parseGitOptions(subcommand: string, args: readonly string[]): GitOptions {
	const options = GIT_OPTIONS[subcommand] ?? [];
	const out: GitOptions = { given: [], positionals: [], paths: undefined, help: false };
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") {
			out.paths = args.slice(i + 1);
			break;
		}
		if (arg.startsWith("--")) {
			const eq = arg.indexOf("=");
			const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
			if (name === "help" || name === "help-all") {
				out.help = true;
				continue;
			}
			const matches = longMatches(options, name);
			if (matches.length === 0) {
				out.given.push({ name, negated: false, value: eq < 0 ? undefined : arg.slice(eq + 1) });
				continue;
			}
			let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
			const takes = matches.length === 1 && !matches[0]?.negated ? matches[0]?.option.value : undefined;
			if (takes === "required" && value === undefined) value = args[++i];
			for (const { option, negated } of matches) out.given.push({ name: option.long ?? "", negated, value });
			continue;
		}
		if (arg.startsWith("-") && arg.length > 1) {
			if (arg === "-h") {
				out.help = true;
				continue;
			}
			for (let j = 1; j < arg.length; j++) {
				const letter = arg[j] as string;
				const option = options.find((o) => o.short === letter);
				const name = option?.long ?? letter;
				if (option?.value === "required") {
					const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
					out.given.push({ name, negated: false, value });
					break;
				}
				if (option?.value === "optional" && j + 1 < arg.length) {
					out.given.push({ name, negated: false, value: arg.slice(j + 1) });
					break;
				}
				out.given.push({ name, negated: false });
			}
			continue;
		}
		out.positionals.push(arg);
	}
	return out;
}

/** Whether an option is in effect at the end: given, and not negated by a later `--no-X`. */
export function isSet(options: GitOptions, ...names: string[]): boolean {
	for (const name of names) {
		let on = false;
		for (const given of options.given) if (given.name === name) on = !given.negated;
		if (on) return true;
	}
	return false;
}

/** The last value given to an option (negation clears it). */
export function optionValue(options: GitOptions, name: string): string | undefined {
	let value: string | undefined;
	for (const given of options.given) if (given.name === name) value = given.negated ? undefined : (given.value ?? "");
	return value;
}
