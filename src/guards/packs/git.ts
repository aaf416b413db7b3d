/** The `git` pack (on by default): git commands that throw away work or rewrite shared history. */
import { hasFlag, type ParsedOptions, parseOptions } from "../options.ts";
import type { RuleAnswer, RulePack, ShellCommand, ShellRule } from "../types.ts";

/** `git -C dir -c k=v --no-pager push …` → `push` and what follows it. */
export function gitSubcommand(command: ShellCommand): { name: string; args: string[] } | undefined {
	const args = command.args;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (
			arg === "-C" ||
			arg === "-c" ||
			arg === "--git-dir" ||
			arg === "--work-tree" ||
			arg === "--namespace" ||
			arg === "--exec-path" ||
			arg === "--config-env"
		)
			i++;
		else if (!arg.startsWith("-")) return { name: arg, args: args.slice(i + 1) };
	}
	return undefined;
}

/** A rule on one git subcommand, given its parsed options and raw arguments. */
function gitRule(
	id: string,
	reason: string,
	subcommands: readonly string[],
	test: (options: ParsedOptions, args: string[]) => boolean | string | RuleAnswer,
): ShellRule {
	return {
		id: `git/${id}`,
		reason,
		programs: ["git"],
		test(command) {
			const sub = gitSubcommand(command);
			if (!sub || !subcommands.includes(sub.name)) return false;
			return test(
				parseOptions(sub.args, { shortValue: "oOmcCF", longValue: ["repo", "push-option", "message", "file", "exec"] }),
				sub.args,
			);
		},
	};
}

/** Branches a team shares by name; a force push to one of them, or to a branch not named, is blocked. */
const SHARED_BRANCH = /^(?:main|master|trunk|develop|development|production|prod|stable|release(?:[/_-].*)?|gh-pages)$/;

/**
 * A force push whose every refspec names a branch, none of them shared: it rewrites a feature branch,
 * which the person at the terminal may allow (an ask). `git push -f` alone (the current branch, unseen),
 * `--all`, `--tags`, a tag, a computed or wildcard refspec, or a shared branch: `block` (true or the reason).
 */
function askForFeatureBranches(o: ParsedOptions, refspecs: string[], block: string | true = true): RuleAnswer | string | true {
	if (refspecs.length === 0 || hasFlag(o, "--all", "--branches", "--tags")) return block;
	const branches: string[] = [];
	for (const refspec of refspecs) {
		const spec = refspec.replace(/^\+/, "");
		const target = (spec.includes(":") ? spec.slice(spec.indexOf(":") + 1) : spec).replace(/^refs\/heads\//, "");
		if (!/^[\w][\w./-]*$/.test(target) || target === "HEAD" || target.startsWith("refs/") || SHARED_BRANCH.test(target)) return block;
		branches.push(target);
	}
	return { verdict: "ask", reason: `a force push rewrites ${branches.join(", ")} on the remote; others' commits there can be lost` };
}

const rules: ShellRule[] = [
	gitRule("reset-hard", "git reset --hard discards uncommitted changes", ["reset"], (o) => hasFlag(o, "--hard", "--merge")),
	gitRule(
		"clean-force",
		"git clean -f deletes untracked files",
		["clean"],
		(o) => hasFlag(o, "f", "--force") && !hasFlag(o, "n", "--dry-run", "i", "--interactive"),
	),
	gitRule("checkout-worktree", "git checkout of paths discards uncommitted changes", ["checkout"], (o, args) => {
		if (hasFlag(o, "f", "--force")) return "git checkout --force discards uncommitted changes";
		if (hasFlag(o, "p", "--patch")) return false;
		return args.includes("--") ? o.positionals.length > 0 : o.positionals.some((p) => p === "." || p === "./" || p === ":/" || p === "*");
	}),
	gitRule("restore-worktree", "git restore discards uncommitted changes in the worktree", ["restore"], (o) => {
		if (hasFlag(o, "p", "--patch")) return false;
		return !hasFlag(o, "S", "--staged") || hasFlag(o, "W", "--worktree");
	}),
	gitRule("switch-discard", "git switch --discard-changes throws away uncommitted changes", ["switch"], (o) =>
		hasFlag(o, "f", "--force", "--discard-changes"),
	),
	gitRule("force-push", "a force push without --force-with-lease can overwrite others' commits", ["push"], (o) => {
		if (hasFlag(o, "n", "--dry-run")) return false;
		const lease = hasFlag(o, "--force-with-lease");
		if (hasFlag(o, "f", "--force")) return lease ? false : askForFeatureBranches(o, o.positionals.slice(1));
		if (hasFlag(o, "--mirror")) return "git push --mirror overwrites and deletes remote refs";
		const forced = o.positionals.filter((p) => p.startsWith("+"));
		if (forced.length === 0 || lease) return false;
		const block = "a +refspec force-pushes without --force-with-lease";
		return o.positionals[0]?.startsWith("+") ? block : askForFeatureBranches(o, forced, block);
	}),
	gitRule("push-delete", "git push deletes a remote branch or tag", ["push"], (o) => {
		if (hasFlag(o, "n", "--dry-run")) return false;
		return hasFlag(o, "d", "--delete", "--prune") || o.positionals.slice(1).some((p) => p.startsWith(":") && p.length > 1);
	}),
	gitRule(
		"branch-force-delete",
		"git branch -D deletes a branch even when it is not merged",
		["branch"],
		(o) => o.short.has("D") || (hasFlag(o, "d", "--delete") && hasFlag(o, "f", "--force")),
	),
	gitRule(
		"stash-destroy",
		"git stash drop/clear deletes stashed work",
		["stash"],
		(o) => o.positionals[0] === "drop" || o.positionals[0] === "clear",
	),
	{
		id: "git/history-rewrite",
		reason: "rewrites history or expires what could recover it",
		programs: ["git"],
		test(command) {
			const sub = gitSubcommand(command);
			if (!sub) return false;
			if (sub.name === "filter-branch" || sub.name === "filter-repo" || sub.name === "prune") return true;
			if (sub.name === "reflog") return sub.args[0] === "expire" || sub.args[0] === "delete";
			if (sub.name === "update-ref") return sub.args.includes("-d") || sub.args.includes("--stdin");
			if (sub.name !== "gc") return false;
			const prune = parseOptions(sub.args).long.get("prune");
			return prune === "now" || prune === "all";
		},
	},
	gitRule(
		"worktree-force-remove",
		"git worktree remove --force deletes uncommitted work",
		["worktree"],
		(o) => o.positionals[0] === "remove" && hasFlag(o, "f", "--force"),
	),
];

/** reset --hard, clean -f, checkout/restore of the worktree, force pushes, branch -D, stash drop/clear, history rewrites. */
export const gitPack: RulePack = {
	name: "git",
	description: "reset --hard, clean -f, checkout/restore of files, force push, branch -D, stash drop, history rewrites",
	rules,
};
