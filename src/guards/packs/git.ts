/**
 * The `git` pack (on by default): git commands that throw away work or rewrite shared history,
 * read as git reads them (see `_git-call.ts` and `_git-options.ts`): `git reset --har`, `git -c
 * alias.x='reset --hard' x` and `git -c clean.requireForce=false clean -d` are what they do.
 *
 * Worktree discards, judged without looking at the disk (the guard never does): a checkout,
 * restore or `rm -f` of the whole tree (`.`, `:/`, a glob, the project or above) is blocked; one of
 * named paths is blocked too, with its own reason, and is the kind of call a person should be
 * asked about (it loses only the uncommitted changes of those files).
 */
import type { RuleContext, RulePack, ShellCommand, ShellRule } from "../types.ts";
import { configBool, type GitCall, readGit } from "./_git-call.ts";
import { type GitOptions, isSet, optionValue } from "./_git-options.ts";
import { gitNested } from "./git-code.ts";

/** `git -C dir -c k=v --no-pager push …` → `push` and what follows it (aliases expanded). */
export function gitSubcommand(command: ShellCommand): { name: string; args: string[] } | undefined {
	const { call } = readGit(command);
	return call.name === undefined ? undefined : { name: call.name, args: call.args };
}

/** A rule on some git subcommands, given the options git would parse. */
function gitRule(
	id: string,
	reason: string,
	subcommands: readonly string[],
	test: (options: GitOptions, call: GitCall, context: RuleContext) => boolean | string | undefined,
	verdict: "block" | "ask" = "block",
): ShellRule {
	return {
		id: `git/${id}`,
		reason,
		...(verdict === "ask" ? { verdict } : {}),
		programs: ["git"],
		test(command, context) {
			const { call, options } = readGit(command);
			if (!options || !call.name || !subcommands.includes(call.name) || options.help) return false;
			return test(options, call, context);
		},
	};
}

/** Whether a pathspec names the whole tree (or an unknown set of files): `.`, `:/`, `*.ts`, the project or above. */
function wholeTree(path: string, context: RuleContext): boolean {
	if (/^(?:\.\/?|\*|:\/?.*|:\(.*|\/)$/.test(path) || /[*?[]/.test(path)) return true;
	const resolved = context.resolve(path);
	const root = context.project ?? context.cwd;
	if (resolved === undefined || root === undefined) return resolved === undefined;
	return resolved === root || root.startsWith(`${resolved === "/" ? "" : resolved}/`);
}

/** A single word after `git checkout`: a path rather than a branch (`src/app.ts`, `.env`, `./x`, `.`). */
const LOOKS_LIKE_PATH = /^(?:\.{1,2}(?:\/.*)?|\/.*|:.*|.*[*?[].*|.*\.[A-Za-z][A-Za-z0-9]{0,7}|(?:.*\/)?\.[^/]+)$/;

/** What a command throws away: the whole tree (a reason), or named paths (a reason: a call a person could be asked about). */
type Discards = { tree?: string | undefined; paths?: string | undefined } | undefined;

/** A discard of `paths`, as one of the two kinds. */
function split(what: string, paths: readonly string[], context: RuleContext): Discards {
	if (paths.length === 0) return undefined;
	if (paths.some((path) => wholeTree(path, context))) return { tree: `${what} of the whole tree discards every uncommitted change` };
	return { paths: `${what} discards the uncommitted changes of ${paths.slice(0, 3).join(" ")}` };
}

function checkoutDiscards(o: GitOptions, context: RuleContext): Discards {
	if (isSet(o, "force")) return { tree: "git checkout --force discards uncommitted changes" };
	if (isSet(o, "patch")) return undefined;
	if (optionValue(o, "pathspec-from-file") !== undefined) return { tree: "git checkout --pathspec-from-file discards uncommitted changes" };
	if (o.paths !== undefined) return split("git checkout", o.paths, context);
	if (isSet(o, "b", "B", "orphan")) return undefined;
	if (o.positionals.length >= 2) return split("git checkout", o.positionals.slice(1), context);
	return split(
		"git checkout",
		o.positionals.filter((p) => LOOKS_LIKE_PATH.test(p) && !/^v?\d+(?:\.\d+)+$/.test(p)),
		context,
	);
}

function restoreDiscards(o: GitOptions, context: RuleContext): Discards {
	if (isSet(o, "patch") || (isSet(o, "staged") && !isSet(o, "worktree"))) return undefined;
	const paths = [...o.positionals, ...(o.paths ?? [])];
	return split("git restore", paths.length > 0 ? paths : ["."], context);
}

function rmDiscards(o: GitOptions, context: RuleContext): Discards {
	if (isSet(o, "cached", "dry-run")) return undefined;
	const paths = [...o.positionals, ...(o.paths ?? [])];
	if (isSet(o, "r") && paths.some((path) => wholeTree(path, context)))
		return { tree: "git rm -r of the whole tree deletes every tracked file" };
	return isSet(o, "force") && paths.length > 0
		? { paths: `git rm --force discards the uncommitted changes of ${paths.slice(0, 3).join(" ")}` }
		: undefined;
}

/** Branches many people share: a force push to one of them is never a call to wave through. */
const SHARED_BRANCH = /^(?:main|master|trunk|develop|development|dev|release.*|prod|production|staging|stable|gh-pages|HEAD)$/;

/**
 * Whether a push forces, and why; `branches` when every ref it forces is named and none is shared
 * (`git push -f origin feature/x`): the kind of call a person could be asked about.
 */
function forcePush(o: GitOptions, call: GitCall): { reason: string; branches?: string | undefined } | undefined {
	if (isSet(o, "dry-run")) return undefined;
	const refspecs = [...o.positionals, ...(o.paths ?? [])].slice(1);
	const named = (plus: boolean) => {
		const forced = refspecs
			.filter((r) => !plus || r.startsWith("+"))
			.map(
				(r) =>
					r
						.replace(/^\+/, "")
						.split(":")
						.at(-1)
						?.replace(/^refs\/heads\//, "") ?? "",
			);
		return forced.length > 0 && forced.every((b) => b !== "" && !/[*$`]/.test(b) && !SHARED_BRANCH.test(b) && !b.startsWith("refs/"))
			? forced.join(" ")
			: undefined;
	};
	// `--force` (the last of `--force`/`--no-force`) defeats a lease, whatever their order; so does a `+refspec`.
	if (isSet(o, "force")) {
		const reason = isSet(o, "force-with-lease")
			? "git push --force overrides --force-with-lease: an unconditional force push"
			: "a force push without --force-with-lease can overwrite others' commits";
		return { reason, branches: isSet(o, "all", "branches", "tags", "mirror") ? undefined : named(false) };
	}
	if (isSet(o, "mirror")) return { reason: "git push --mirror overwrites and deletes remote refs" };
	if (refspecs.some((p) => p.startsWith("+"))) {
		const reason = isSet(o, "force-with-lease")
			? "a +refspec force-pushes even with --force-with-lease (the + overrides the lease)"
			: "a +refspec force-pushes without --force-with-lease";
		return { reason, branches: named(true) };
	}
	if (refspecs.length > 0 || isSet(o, "all", "branches", "tags")) return undefined;
	for (const [key, value] of call.config) {
		if (/^remote\..+\.mirror$/.test(key) && configBool(value) === true)
			return { reason: `git push mirrors (${key} is true): it overwrites and deletes remote refs` };
		if (/^remote\..+\.push$/.test(key) && typeof value === "string" && value.startsWith("+"))
			return { reason: `git push force-pushes the refspec ${key} gives (${value})` };
	}
	return undefined;
}

const rules: ShellRule[] = [
	gitRule("reset-hard", "git reset --hard discards uncommitted changes", ["reset"], (o) =>
		isSet(o, "hard") ? true : isSet(o, "merge") && "git reset --merge discards changes it cannot keep",
	),
	gitRule("clean-force", "git clean -f deletes untracked files", ["clean"], (o, call) => {
		if (isSet(o, "dry-run", "interactive")) return false;
		if (isSet(o, "force")) return true;
		return (
			configBool(call.config.get("clean.requireforce")) === false && "git clean deletes untracked files when clean.requireForce is false"
		);
	}),
	gitRule(
		"checkout-worktree",
		"git checkout of the whole tree discards uncommitted changes",
		["checkout"],
		(o, _call, context) => checkoutDiscards(o, context)?.tree,
	),
	gitRule(
		"checkout-worktree-paths",
		"git checkout of named paths discards their uncommitted changes",
		["checkout"],
		(o, _call, context) => checkoutDiscards(o, context)?.paths,
		"ask",
	),
	gitRule(
		"restore-worktree",
		"git restore of the whole tree discards uncommitted changes",
		["restore"],
		(o, _call, context) => restoreDiscards(o, context)?.tree,
	),
	gitRule(
		"restore-worktree-paths",
		"git restore of named paths discards their uncommitted changes",
		["restore"],
		(o, _call, context) => restoreDiscards(o, context)?.paths,
		"ask",
	),
	gitRule("switch-discard", "git switch --discard-changes throws away uncommitted changes", ["switch"], (o) =>
		isSet(o, "force", "discard-changes"),
	),
	gitRule("force-push", "a force push can overwrite others' commits", ["push"], (o, call) => {
		const found = forcePush(o, call);
		return found && !found.branches ? found.reason : false;
	}),
	gitRule(
		"force-push-branch",
		"a force push to a named branch other than a shared one (main, master, develop, release…)",
		["push"],
		(o, call) => {
			const found = forcePush(o, call);
			return found?.branches ? `${found.reason} (to ${found.branches})` : false;
		},
		"ask",
	),
	gitRule("push-delete", "git push deletes a remote branch or tag", ["push"], (o) => {
		if (isSet(o, "dry-run")) return false;
		return isSet(o, "delete", "prune") || o.positionals.slice(1).some((p) => p.startsWith(":") && p.length > 1);
	}),
	gitRule(
		"branch-force-delete",
		"git branch -D deletes a branch even when it is not merged",
		["branch"],
		(o) => isSet(o, "D") || (isSet(o, "delete") && isSet(o, "force")),
	),
	gitRule(
		"stash-destroy",
		"git stash drop/clear deletes stashed work",
		["stash"],
		(o) => o.positionals[0] === "drop" || o.positionals[0] === "clear",
	),
	gitRule(
		"history-rewrite",
		"rewrites history or expires what could recover it",
		["filter-branch", "filter-repo", "prune", "reflog", "update-ref", "gc"],
		(o, call) => {
			const name = call.name;
			if (name === "filter-branch" || name === "filter-repo") return true;
			if (name === "prune") return !isSet(o, "dry-run", "n");
			if (name === "reflog") return o.positionals[0] === "expire" || o.positionals[0] === "delete";
			if (name === "update-ref") return isSet(o, "d", "stdin");
			const prune = optionValue(o, "prune");
			return prune === "now" || prune === "all";
		},
	),
	gitRule(
		"worktree-force-remove",
		"git worktree remove --force deletes uncommitted work",
		["worktree"],
		(o) => o.positionals[0] === "remove" && isSet(o, "force"),
	),
	gitRule(
		"rm-worktree",
		"git rm -r of the whole tree deletes every tracked file",
		["rm"],
		(o, _call, context) => rmDiscards(o, context)?.tree,
	),
	gitRule(
		"rm-worktree-paths",
		"git rm --force discards the uncommitted changes of the files it removes",
		["rm"],
		(o, _call, context) => rmDiscards(o, context)?.paths,
		"ask",
	),
	gitRule(
		"read-tree-reset",
		"git read-tree --reset -u overwrites the worktree, discarding uncommitted changes",
		["read-tree"],
		(o) => isSet(o, "reset") && isSet(o, "u") && !isSet(o, "dry-run"),
	),
	gitRule(
		"checkout-index-force",
		"git checkout-index --force overwrites files, discarding uncommitted changes",
		["checkout-index"],
		(o) => {
			if (!isSet(o, "force") || isSet(o, "temp")) return false;
			if (isSet(o, "all")) return "git checkout-index --all --force overwrites every file, discarding uncommitted changes";
			return o.positionals.length > 0 || (o.paths ?? []).length > 0 || isSet(o, "stdin");
		},
	),
	{
		id: "git/config-unknown",
		reason: "git configuration that can make it destructive or run code is known only at run time",
		programs: ["git"],
		test(command) {
			const { call } = readGit(command);
			if (call.computedKeys.has("*"))
				return "a git -c or GIT_CONFIG_* setting known only at run time (it could define an alias or a pager)";
			for (const key of call.computedKeys)
				if (
					/^(?:core\.(?:pager|editor|sshcommand|askpass|fsmonitor)$|clean\.requireforce$|remote\.|pager\.|diff\.|filter\.|credential\.)/.test(
						key,
					)
				)
					return `git setting ${key} is known only at run time`;
			return false;
		},
	},
	{
		id: "git/config-weakens",
		reason: "a git setting that makes ordinary git commands destructive",
		programs: ["git"],
		test(command) {
			const { call, options } = readGit(command);
			if (call.name !== "config" || !options) return false;
			const words = options.positionals[0] === "set" ? options.positionals.slice(1) : options.positionals;
			if (words.length < 2 || ["get", "unset", "list", "remove-section", "rename-section"].includes(words[0] as string)) return false;
			const key = words[0]?.toLowerCase() ?? "";
			const value = words[1] ?? "";
			if (key === "clean.requireforce" && configBool(value) === false)
				return "git config clean.requireForce false makes git clean delete without -f";
			if (/^remote\..+\.mirror$/.test(key) && configBool(value) === true) return `git config ${words[0]} true makes git push a mirror push`;
			if (/^remote\..+\.push$/.test(key) && value.startsWith("+")) return `git config ${words[0]} ${value} makes git push a force push`;
			return false;
		},
	},
	{
		id: "git/alias-unknown",
		reason: "runs a git alias whose definition is known only at run time",
		programs: ["git"],
		test(command) {
			const { call } = readGit(command);
			return call.aliases.some((alias) => call.computedKeys.has(`alias.${alias.toLowerCase()}`));
		},
	},
];

/** reset --hard, clean -f, checkout/restore/rm of files, force pushes, branch -D, stash drop/clear, history rewrites. */
export const gitPack: RulePack = {
	name: "git",
	description: "reset --hard, clean -f, checkout/restore/rm of files, force push, branch -D, stash drop, history rewrites",
	rules,
	nested: gitNested,
	protects: [
		"uncommitted work: reset --hard/--merge, checkout/restore of paths, switch --discard-changes, read-tree --reset -u, checkout-index -f, rm -f, worktree remove -f",
		"untracked files: clean -f (and clean without -f when clean.requireForce is false)",
		"the tree: git rm -r of . or :/",
		"remote history: push --force (even after --force-with-lease), +refspec, --mirror, configured +refspecs and mirror remotes, remote deletes",
		"local history: branch -D, stash drop/clear, filter-branch/filter-repo, reflog expire, gc --prune=now, update-ref -d",
		"code git runs: ! aliases, rebase --exec, bisect run, submodule foreach, pagers/editors/ssh commands given with -c or GIT_* variables",
	],
	leavesAlone: [
		"reads and history-preserving commands: status, log, diff, fetch, pull, commit, merge, rebase without --exec",
		"push --force-with-lease (without --force or a +refspec), push --dry-run",
		"checkout/switch of a branch (git refuses to overwrite local changes), restore --staged, rm --cached",
		"abbreviations git rejects as ambiguous are read as every option they could be, so they may block",
	],
};
