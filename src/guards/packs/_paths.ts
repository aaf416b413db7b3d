import type { RuleContext, ShellCommand } from "../types.ts";

/**
 * Folders a build or an install makes again: deleting them inside the project loses nothing
 * (`rm -rf node_modules`, `rm -rf ./build`, a glob of `dist` folders).
 */
export const REGENERABLE = new Set([
	"node_modules",
	"build",
	"dist",
	"out",
	"target",
	".next",
	".nuxt",
	".svelte-kit",
	".turbo",
	".parcel-cache",
	".vite",
	".angular",
	".expo",
	".docusaurus",
	"coverage",
	".nyc_output",
	".cache",
	"__pycache__",
	".pytest_cache",
	".mypy_cache",
	".ruff_cache",
	".tox",
	".nox",
	".gradle",
	".dart_tool",
	"storybook-static",
	".eslintcache",
	".tsbuildinfo",
]);

/** Whether `word`, resolved to `path`, lies strictly inside the project under a regenerable folder. */
export function regenerable(word: string, path: string, context: RuleContext): boolean {
	const project = context.project;
	if (!project || project === "/" || project === context.home || !path.startsWith(`${project}/`)) return false;
	const below = path.slice(project.length + 1).split("/");
	if (below.some((segment) => REGENERABLE.has(segment) || segment.endsWith(".egg-info"))) return true;
	// A glob before a regenerable name (`packages/<glob>/node_modules`) deletes only folders of that name.
	const last = word.replace(/\/+$/, "").split("/").at(-1) ?? "";
	return /[*?[]/.test(word) && !word.includes("..") && REGENERABLE.has(last);
}

/** Whether a path is `/`, a top-level system folder, home or the project, or holds one of them. */
export function protectedRoot(path: string, context: RuleContext): boolean {
	if (path === "/" || SYSTEM_TOP.test(path)) return true;
	const holds = (inner: string | undefined) => inner !== undefined && (inner === path || inner.startsWith(`${path}/`));
	return holds(context.home) || holds(context.project);
}

/** Top-level folders of Linux and macOS, and the ones right under `/usr`. */
export const SYSTEM_TOP =
	/^\/(?:bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var|mnt|media|snap|nix|Users|System|Library|Applications|Volumes|private|usr\/(?:bin|sbin|lib|lib64|local|share|include|libexec))\/?$/;

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
		if (!context.isTemp(inside) && !context.isAllowed(inside) && !regenerable(word, inside, context))
			return `${target} lies outside temp dirs`;
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
