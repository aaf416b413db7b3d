import { readFileSync } from "node:fs";
import { defu } from "defu";
import { join } from "pathe";
import { settingsChecks, settingsDescriptions } from "./_settings-checks.generated.ts";
import { homeDir, resolvePath, userAgentDir } from "../paths.ts";
import type { Settings } from "./settings-schema.ts";

// The schema lives apart (and is exported by the index): loading TypeBox is not needed to read settings.
export type { Settings } from "./settings-schema.ts";

/** A path from a settings file's `hooks`, resolved, with the file it came from. */
export interface SettingsHookPath {
	/** Absolute path. */
	path: string;
	/** `project` paths need trust approval before they run; `user` paths are the user's own choice. */
	level: "project" | "user";
}

/** Result of {@link loadSettings}. */
export interface LoadSettingsResult {
	/** Merged settings; `hooks` holds absolute paths (project ones first, duplicates removed). */
	settings: Settings;
	/** One per problem, naming the file and the key; the offending key (or unparsable file) is ignored. */
	warnings: string[];
	/** The settings files that were read and contributed. */
	sources: { project?: string; user?: string };
	/** `settings.hooks` with where each path came from. */
	hookPaths: SettingsHookPath[];
	/** Each file's own valid settings, for callers that must not let the project override the user. */
	layers: { project?: Settings | undefined; user?: Settings | undefined };
}

/** Where the settings files live; injectable for tests and embedders. */
export interface LoadSettingsOptions {
	projectFile?: string;
	userFile?: string;
}

/** The project settings file of `cwd`. */
export function projectSettingsPath(cwd: string): string {
	return join(cwd, ".xcsh", "settings.json");
}

/** The user settings file, `~/.xcsh/agent/settings.json`. */
export function userSettingsPath(): string {
	return join(userAgentDir(), "settings.json");
}

/**
 * Reads the project settings layered over the user settings. Never throws.
 *
 * - Merge: `defu(project, user)` — project scalars win; arrays are concatenated (project first) and
 *   deduplicated, so `disabledProviders`/`disabledExtensions` are the union of both files (a project
 *   can disable more, never re-enable what the user disabled) and `hooks` loads both files' lists.
 * - A file that is not valid JSON or not an object is ignored entirely; a key of the wrong type is
 *   ignored alone, the rest of its file still applies.
 * - `hooks` paths: `~` expands to home; relative paths resolve against the root the file belongs
 *   to — `cwd` for the project file, home for the user file (a user path must not change meaning,
 *   and become project-controlled, depending on the directory the agent runs in).
 *   A path listed by both files counts as `user` (the user vouched for it).
 */
export async function loadSettings(cwd: string, options: LoadSettingsOptions = {}): Promise<LoadSettingsResult> {
	const projectFile = options.projectFile ?? projectSettingsPath(cwd);
	const userFile = options.userFile ?? userSettingsPath();
	const [project, user] = await Promise.all([readSettingsFile(projectFile), readSettingsFile(userFile)]);
	const warnings = [...project.warnings, ...user.warnings];
	const sources: LoadSettingsResult["sources"] = {};
	if (project.settings) sources.project = projectFile;
	if (user.settings) sources.user = userFile;

	const home = homeDir();
	const byPath = new Map<string, SettingsHookPath>();
	for (const [raw, level, base] of [
		...(project.settings?.hooks ?? []).map((p) => [p, "project", cwd] as const),
		...(user.settings?.hooks ?? []).map((p) => [p, "user", home] as const),
	]) {
		const path = resolvePath(raw, base);
		const existing = byPath.get(path);
		if (existing) existing.level = level === "user" ? "user" : existing.level;
		else byPath.set(path, { path, level });
	}

	const merged = defu(project.settings ?? {}, user.settings ?? {}) as Settings;
	for (const key of ["disabledProviders", "disabledExtensions"] as const) if (merged[key]) merged[key] = [...new Set(merged[key])];
	const hookPaths = [...byPath.values()];
	if (hookPaths.length > 0) merged.hooks = hookPaths.map((h) => h.path);
	return { settings: merged, warnings, sources, hookPaths, layers: { project: project.settings, user: user.settings } };
}

interface ReadResult {
	settings?: Settings;
	warnings: string[];
}

/** Parses and checks one settings file; missing → nothing, broken → warnings. */
export async function readSettingsFile(file: string): Promise<ReadResult> {
	const shown = displayPath(file);
	let text: string;
	try {
		text = readFileSync(file, "utf8"); // sync: both files are tiny or missing, read on every start-up
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { warnings: [] };
		return { warnings: [`${shown}: cannot read (${code ?? (error as Error).message}), ignored`] };
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		return { warnings: [`${shown}: invalid JSON (${(error as Error).message}), file ignored`] };
	}
	if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
		return { warnings: [`${shown}: must be a JSON object, file ignored`] };

	const warnings: string[] = [];
	const settings: Record<string, unknown> = { ...parsed };
	for (const [key, check] of Object.entries(settingsChecks)) {
		if (!(key in settings) || check(settings[key])) continue;
		warnings.push(`${shown}: ${key} must be ${settingsDescriptions[key]}, key ignored`);
		delete settings[key];
	}
	return { settings: settings as Settings, warnings };
}

/** `~/…` for files under home, as users know them; anything else as is. */
function displayPath(file: string): string {
	const home = homeDir();
	return file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}
