import { type FSWatcher, realpathSync, statSync, watch } from "node:fs";
import { basename, dirname } from "pathe";
import { hookWatchTargets } from "../discovery/project.ts";
import { isModulePath, MODULE_LOADERS } from "../hooks/module-files.ts";
import type { LoadedHook } from "../hooks/types.ts";
import type { Host } from "../host/host.ts";
import { resolvePath } from "../paths.ts";
import { homeDir } from "../paths.ts";
import { readRegularFile } from "../fs/regular-file.ts";
import { importGraph } from "../hooks/import-graph.ts";
import { defaultTrustFile } from "../trust/trust-store.ts";
import { SYSTEM_HOOKS_DIR } from "../discovery/system.ts";

/** What {@link watchHookFiles} watches. */
export interface WatchTargets {
	/** Files whose change means "reload": loaded hooks, hooks that failed to load, settings files. */
	files: string[];
	/** Folders where any new, changed or removed entry means "reload": the discovery folders. */
	dirs: string[];
}

/** A set of watchers; `close` stops them and any pending debounce. */
export interface HookWatcher {
	close(): void;
	/**
	 * Whether anything watched changed at or after `since` (epoch ms), by its timestamps. A reload
	 * starts its new watcher only once the load is done, and closing the old one drops a change it was
	 * still debouncing: a change that landed while the load ran (after it read that file) would be
	 * missed for the life of the process. Asked once the new watcher runs, this closes that window.
	 */
	changedSince(since: number): boolean;
}

/** Slack for file timestamps, which the kernel takes from a clock up to a tick behind `Date.now()`. */
const STAMP_SLACK_MS = 20;

/** The newest change time of `path` (content, rename or entry list), or undefined when it is absent. */
function stampOf(path: string): number | undefined {
	const info = statSync(path, { throwIfNoEntry: false });
	return info ? Math.max(info.mtimeMs, info.ctimeMs) : undefined;
}

/** What discovery reads for `cwd` (asked of the providers) and both settings files. */
export function discoveryTargets(cwd: string): WatchTargets {
	return hookWatchTargets(cwd, homeDir());
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

/**
 * Watches folders, never single files: editors save by writing a new file and renaming it over the
 * old one, which silently ends a watch on the old file. A file is watched through its folder,
 * filtered to its name. A target that does not exist yet is watched through its nearest existing
 * ancestor, filtered to the name of the next missing component, so creating `.xcsh/hooks/` later
 * still triggers a reload (which then watches the new folder). Events are debounced: `onChange`
 * runs once `debounceMs` have passed without another event.
 */
export function watchHookFiles(targets: WatchTargets, debounceMs: number, onChange: () => void): HookWatcher {
	// Folder → the entry names that matter in it, or "all" (every visible entry).
	const filters = new Map<string, Set<string> | "all">();
	const add = (path: string, whole: boolean) => {
		let dir = whole ? path : dirname(path);
		let name = whole ? undefined : basename(path);
		while (!isDir(dir)) {
			const parent = dirname(dir);
			if (parent === dir) return;
			name = basename(dir);
			dir = parent;
		}
		const current = filters.get(dir);
		if (name === undefined) filters.set(dir, "all");
		else if (current === undefined) filters.set(dir, new Set([name]));
		else if (current !== "all") current.add(name);
	};
	for (const file of targets.files) add(file, false);
	for (const dir of targets.dirs) add(dir, true);

	let timer: ReturnType<typeof setTimeout> | undefined;
	const schedule = () => {
		clearTimeout(timer);
		timer = setTimeout(onChange, debounceMs);
	};
	const watchers: FSWatcher[] = [];
	for (const [dir, filter] of filters) {
		try {
			const watcher = watch(dir, (_, filename) => {
				const name = filename ? basename(String(filename)) : undefined;
				// No name (some platforms) → assume it mattered; hidden entries are editor swap files.
				if (name === undefined || (filter === "all" ? !name.startsWith(".") : filter.has(name))) schedule();
			});
			watcher.on("error", () => watcher.close()); // the folder went away; the next reload re-targets
			watchers.push(watcher);
		} catch {
			// Unreadable folder: nothing to watch there.
		}
	}
	const stamped = [...targets.files, ...filters.keys()];
	return {
		close() {
			clearTimeout(timer);
			for (const watcher of watchers) watcher.close();
		},
		changedSince(since) {
			return stamped.some((path) => (stampOf(path) ?? 0) >= since - STAMP_SLACK_MS);
		},
	};
}

/**
 * What one loaded hook runs, beyond what discovery watches (docs/contract.md#trust: a served guard is never stale): a
 * module's import graph as it is on disk now (its project files, outside `node_modules`), a shell
 * hook's folder (the files beside it, which it may source), an agent entry's scripts, the files beside
 * them and their folders. A file that cannot be read contributes nothing: its load error is watched.
 */
function hookTargets(hook: Pick<LoadedHook, "resolvedPath" | "watchFiles">, targets: WatchTargets): void {
	const path = hook.resolvedPath;
	if (hook.watchFiles) {
		const files = hook.watchFiles();
		targets.files.push(...files);
		targets.dirs.push(...files.map((file) => dirname(file)));
		return;
	}
	targets.files.push(path);
	let real = path;
	try {
		// A hook that is a link (dotfiles managers link each one) changes where the link points: that
		// file is watched too, and for a shell hook its folder.
		real = realpathSync(path);
	} catch {}
	if (real !== path) targets.files.push(real);
	if (!isModulePath(path)) return void targets.dirs.push(...new Set([dirname(path), dirname(real)]));
	try {
		targets.files.push(...importGraph(real, readRegularFile(real), false).keys());
	} catch {}
}

/**
 * What the system folder's import check looked at for its hooks (src/discovery/system-imports.ts):
 * the files they import, the folders and `node_modules` on the way, the tsconfig that maps an alias.
 * A hook failed closed by that check is watched the same way, so fixing it (a `chmod`, the missing
 * file) reloads it.
 */
function systemTargets(paths: string[], targets: WatchTargets): void {
	const system = paths.filter((path) => path.startsWith(`${SYSTEM_HOOKS_DIR}/`));
	if (system.length === 0) return;
	const { SystemImportCheck } = require("../discovery/system-imports.ts") as typeof import("../discovery/system-imports.ts");
	const check = new SystemImportCheck();
	for (const path of system) check.problemOf(path);
	// Each path with every folder above it: the check asked who owns all of them.
	const files = new Set<string>();
	for (const path of check.looked) for (let at = path; dirname(at) !== at; at = dirname(at)) files.add(at);
	// What an import names, with the extensions Bun tries: a file created there is what it then reaches.
	for (const path of check.written) for (const ext of ["", ...Object.keys(MODULE_LOADERS)]) files.add(path + ext);
	targets.files.push(...files);
}

/**
 * Watches everything a loaded host depends on: its hook files and what they run (imports, the files
 * beside a script), the paths of hooks that failed to load, the settings and agent config files, the
 * trust store, and (with discovery) every discovery folder.
 */
export function watchHost(
	host: Pick<Host, "cwd" | "hooks" | "loadErrors">,
	discovery: boolean,
	debounceMs: number | undefined,
	onChange: () => void,
): HookWatcher {
	const discovered = discoveryTargets(host.cwd);
	const targets: WatchTargets = {
		files: [
			...host.loadErrors.map((e) => resolvePath(e.path, host.cwd)),
			...discovered.files,
			defaultTrustFile(), // an approval or a revocation changes which project hooks may run
		],
		dirs: discovery ? [...discovered.dirs] : [],
	};
	for (const hook of host.hooks) hookTargets(hook, targets);
	systemTargets([...host.hooks.map((h) => h.resolvedPath), ...host.loadErrors.map((e) => resolvePath(e.path, host.cwd))], targets);
	return watchHookFiles(targets, debounceMs ?? 100, onChange);
}
