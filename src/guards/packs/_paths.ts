import type { RuleContext, ShellCommand } from "../types.ts";

/** `a/{b,c}/d` as the shell expands it (`a/b/d`, `a/c/d`); at most 64 words. */
export function expandBraces(word: string): string[] {
	const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
	if (!match) return [word];
	const out: string[] = [];
	for (const option of (match[1] as string).split(",")) {
		for (const expanded of expandBraces(word.slice(0, match.index) + option + word.slice(match.index + match[0].length))) {
			if (out.length >= 64) return out;
			out.push(expanded);
		}
	}
	return out;
}

/**
 * Why deleting `target` (recursively) is not safe, or `undefined` when it lies inside a temporary
 * directory or a path the hook allowed. A glob (`build/*`) counts as the directory before it.
 */
export function unsafeTarget(target: string, computed: boolean, context: RuleContext): string | undefined {
	for (const word of expandBraces(target)) {
		const globAt = word.search(/[*?[]/);
		const fixed = globAt < 0 ? word : word.slice(0, word.lastIndexOf("/", globAt) + 1) || ".";
		const path = computed && !/^(?:~|\$HOME|\$\{HOME\}|\$TMPDIR|\$\{TMPDIR\})(?:\/|$)/.test(word) ? undefined : context.resolve(fixed);
		if (path === undefined || (computed && /\$(?!HOME\b|\{HOME\}|TMPDIR\b|\{TMPDIR\})|`/.test(word)))
			return `${target}: a path known only at run time`;
		const inside = globAt >= 0 ? `${path.replace(/\/$/, "")}/x` : path;
		if (path === "/") return `${target}: the whole file system`;
		if (path === context.home) return `${target}: the home directory`;
		if (!context.isTemp(inside) && !context.isAllowed(inside)) return `${target} lies outside temp dirs`;
	}
	return undefined;
}

/** The first unsafe target among a command's arguments (see {@link unsafeTarget}). */
export function firstUnsafe(command: ShellCommand, targets: readonly string[], context: RuleContext): string | undefined {
	for (const target of targets) {
		const at = command.args.lastIndexOf(target);
		const why = unsafeTarget(target, command.computed[at] === true, context);
		if (why) return why;
	}
	return undefined;
}
