import { existsSync } from "node:fs";
import { resolve } from "pathe";
import { homeDir } from "../paths.ts";
import { mark } from "../profile.ts";
import { hookProviders } from "./register.ts";
import { projectSettingsPath, userSettingsPath } from "./settings.ts";

/*
 * Which project a folder belongs to (docs/sources-and-trust.md#projects-found-from-any-folder-inside-them).
 *
 * The agents find their own project config from any folder inside the project; so must we, or an
 * agent started in `proj/src/deep` (Codex sends that folder as `cwd`) finds no guard and allows. From
 * the start folder we climb to the nearest folder holding `.git` (a file or a folder: the repository's
 * root bounds the project, as Codex's project root and Gemini's context files are bounded) and never
 * into the user's home folder itself (`~/.xcsh` is the user level, not a project). Every folder on
 * the way holding one of the project places the hook providers read ({@link PROJECT_FOLDERS}: `.xcsh/`,
 * `.claude/`, `.codex/`, `.gemini/`, …) is a *layer*.
 *
 * Every layer's project hooks apply, nearest first, and a layer never shadows or disables another's:
 * a nested `.xcsh/` (a package of a monorepo, or a `vendor/x/.xcsh/` with an empty `hooks/` a cloned
 * repository ships) adds hooks, it never takes the outer project's guard away. Choosing the nearest
 * layer alone would turn the outer guard's deny into an allow whenever the agent starts below such a
 * folder. The project root — where install writes, where the project's settings and agent config are
 * read from, what `list` names — is the nearest layer (without one, the repository root, else the
 * start folder). What hooks see as `ctx.cwd` stays the folder the agent runs in.
 */

/** Where a folder's project is. */
export interface ProjectPlace {
	/** The folder the search started from (the agent's working directory). */
	start: string;
	/** The project root: the nearest layer; without one, the repository root; else {@link start}. */
	root: string;
	/** Every folder whose project-level hooks apply, nearest first; never empty (`[root]` when none holds a project place). */
	layers: string[];
	/** The nearest folder holding `.git`, at or above {@link start} (below home), when there is one. */
	gitRoot?: string | undefined;
	/** What made {@link root} the root: a project place in it, the repository's `.git`, or nothing (the start folder). */
	by: "project" | "git" | "start";
}

/**
 * The names whose presence in a folder makes it a project layer: the first folder of every project-level
 * place a hook provider reads (`.xcsh/hooks` and `.xcsh/settings.json`, `.claude/…`, `.codex/…`, each
 * agent's own config). A constant, not asked of the providers on each call: every lone bridge call climbs,
 * and building the providers first costs more than the climb. test/discovery/project.test.ts checks it
 * against the providers, so an agent with a new project folder cannot be left out.
 */
export const PROJECT_FOLDERS: readonly string[] = [".xcsh", ".claude", ".codex", ".gemini", ".qwen", ".factory", ".cursor", ".clinerules"];

/**
 * The project of `start` (see the comment at the top of this file): the one way every path — the
 * bridges, the served calls, the in-process plugins, the CLI and `install` — finds it. A few `stat`
 * calls per folder climbed, no directory listing.
 */
export function findProject(start: string, options: { home?: string | undefined } = {}): ProjectPlace {
	const from = absolute(start);
	// A home given for discovery (a sandbox's) bounds the climb, and so does the user's own: neither is climbed into.
	const homes = new Set([absolute(homeDir()), absolute(options.home ?? homeDir())]);
	const layers: string[] = [];
	let gitRoot: string | undefined;
	for (let dir = from; ; ) {
		// Home is the user's level: never climbed into (an agent started in home itself keeps it as its folder).
		if (homes.has(dir) && dir !== from) break;
		const base = dir === "/" ? "" : dir;
		if (PROJECT_FOLDERS.some((name) => existsSync(`${base}/${name}`))) layers.push(dir);
		if (existsSync(`${base}/.git`)) {
			gitRoot = dir;
			break;
		}
		if (dir === "/" || homes.has(dir)) break;
		dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
	}
	mark("project");
	const root = layers[0] ?? gitRoot ?? from;
	const by = layers.length > 0 ? "project" : gitRoot ? "git" : "start";
	return { start: from, root, layers: layers.length > 0 ? layers : [root], gitRoot, by };
}

/** `path` absolute and normalised; by string when it already is (every call climbs: pathe's first call costs more than the climb). */
function absolute(path: string): string {
	return path.startsWith("/") && !/\/\.{0,2}(?:\/|$)/.test(path.slice(1)) ? path : resolve(path);
}

/**
 * Every folder and file the hook providers read for the project of `cwd` (each layer) and for
 * `home`, plus the settings files: what a long-lived server watches to reload hooks (asked of the
 * providers, so a new provider is watched too).
 */
export function hookWatchTargets(cwd: string, home: string): { dirs: string[]; files: string[] } {
	const { layers } = findProject(cwd, { home });
	const dirs = new Set<string>();
	const files = new Set<string>([...layers.map(projectSettingsPath), userSettingsPath()]);
	for (const layer of layers)
		for (const provider of hookProviders()) {
			const places = provider.watch?.({ cwd: layer, home });
			for (const dir of places?.dirs ?? []) dirs.add(dir);
			for (const file of places?.files ?? []) files.add(file);
		}
	return { dirs: [...dirs], files: [...files] };
}
