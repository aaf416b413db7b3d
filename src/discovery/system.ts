import { lstatSync, readdirSync, statSync } from "node:fs";
import { rootOnlyProblem } from "../fs/root-owned.ts";
import type { Hook } from "./hooks-capability.ts";
import type { ProviderDefinition } from "./capability/registry.ts";
import { MODULE_GLOB } from "../hooks/module-files.ts";
import { prePostFolders } from "../agents/_shared/hook-folders.ts";
import { type HookDir, scanHookDirs } from "./_scan.ts";

/*
 * The system hook folder an organisation installs (`install <agent> --managed`): hooks every agent call
 * on the machine runs, which neither a project nor the user can switch off or replace. It is read only
 * when it, its parent and everything in it is owned by root and writable by nobody else: a folder a user
 * could write to would let that user swap the guard, so then nothing of it loads (a warning says why).
 * Windows has no such folder yet (its ACLs are not checked here); the provider finds nothing there.
 */

/** The provider id of the system folder; settings cannot disable it (src/discovery/discover.ts). */
export const SYSTEM_PROVIDER = "system";

/** `/etc/xcsh/hooks` on Linux and macOS. A constant on purpose: no variable can move the guard elsewhere. */
export const SYSTEM_HOOKS_DIR = "/etc/xcsh/hooks";

const allTools = () => ({ type: "pre" as const, tool: "*" });

/** The folders scanned, in order: `pre/`, `post/`, then modules directly in the folder. */
function systemDirs(): HookDir[] {
	return [...prePostFolders(SYSTEM_HOOKS_DIR, "user"), { dir: SYSTEM_HOOKS_DIR, pattern: MODULE_GLOB, classify: allTools, level: "user" }];
}

/**
 * Why the system folder must not be loaded, or `undefined` when it may: `/etc/xcsh`, the hooks folder,
 * its `pre/` and `post/` folders and every entry in them must be root's alone — each path resolved the
 * way the kernel does, every folder and symlink target on the way owned by root and writable by no one
 * else (src/fs/root-owned.ts). A missing folder is `null` (nothing to load, nothing to say).
 */
export function systemFolderProblem(dir: string = SYSTEM_HOOKS_DIR): string | null | undefined {
	const top = lstatSync(dir, { throwIfNoEntry: false });
	if (!top) return null;
	const checked = [dir];
	for (const sub of ["pre", "post"]) if (statSync(`${dir}/${sub}`, { throwIfNoEntry: false })) checked.push(`${dir}/${sub}`);
	for (const folder of [...checked]) {
		let names: string[];
		try {
			names = readdirSync(folder);
		} catch (error) {
			return `${folder} cannot be read (${(error as NodeJS.ErrnoException).code})`;
		}
		for (const name of names) checked.push(`${folder}/${name}`);
	}
	for (const path of checked) {
		const problem = rootOnlyProblem(path);
		if (problem === null) return `${path} cannot be checked (it points nowhere)`;
		if (problem) return problem;
	}
	return undefined;
}

/**
 * Why a managed call (an entry `install --managed` wrote: `bridge <agent> --managed`) cannot run the
 * organisation's guard, or `undefined` when it can: the folder's {@link systemFolderProblem}, or — the
 * folder missing — a folder above it that someone other than root could write (who could have renamed
 * the hooks away). Such a call is denied with this reason, where a call of the user's own only warns.
 * A folder that is missing on a path only root can change means the organisation put no hooks there.
 */
export function managedFolderProblem(dir: string = SYSTEM_HOOKS_DIR): string | undefined {
	if (process.platform === "win32") return undefined;
	const problem = systemFolderProblem(dir) ?? rootOnlyProblem(dir);
	return problem ? `${dir} not loaded, none of it runs: ${problem} (it must be root's alone)` : undefined;
}

/**
 * The system hook folder (priority 1000, above every other provider, so its hooks come first and a user
 * or project hook of the same name never replaces one). Its hooks count as the user's own: they run
 * without an approval. Linux and macOS only.
 */
export const systemProvider: ProviderDefinition<Hook> = {
	id: SYSTEM_PROVIDER,
	displayName: "system",
	description: `Hooks the organisation installed in ${SYSTEM_HOOKS_DIR} (root-owned)`,
	priority: 1000,
	load: () => {
		if (process.platform === "win32") return { items: [], warnings: [] };
		const problem = systemFolderProblem();
		if (problem === null) return { items: [], warnings: [] };
		if (problem) return { items: [], warnings: [`${SYSTEM_HOOKS_DIR} not loaded, none of it runs: ${problem} (it must be root's alone)`] };
		return scanHookDirs(systemDirs(), systemProvider);
	},
	watch: () => ({ dirs: process.platform === "win32" ? [] : systemDirs().map((d) => d.dir) }),
};

/** The machine's xcsh settings and the check of a root-only path live in src/fs/root-owned.ts (the OTLP export reads them too). */
export { rootOnlyProblem, SYSTEM_SETTINGS_FILE } from "../fs/root-owned.ts";
