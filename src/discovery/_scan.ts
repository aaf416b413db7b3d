// Sync calls: most scanned folders do not exist, and a thread-pool round trip per folder costs more.
import { type Dirent, lstatSync, readdirSync, statSync } from "node:fs";
import { normalize } from "pathe";
import { markKnownFile } from "./_known-files.ts";
import type { HookFolder } from "../agents/_shared/hook-folders.ts";
import type { Hook, HookLevel } from "./hooks-capability.ts";
import type { LoadResult } from "./capability/registry.ts";

/** A file found by {@link scanDir}. */
export interface ScannedFile {
	/** File name inside the directory. */
	name: string;
	/** Absolute path (the directory joined with `name`; symlinks are not resolved). */
	path: string;
}

/** What {@link scanDir} found. */
export interface ScanResult {
	items: ScannedFile[];
	warnings: string[];
}

/** The few patterns providers use, each compiled once per process. */
const globs = new Map<string, Bun.Glob>();
function globFor(pattern: string): Bun.Glob {
	const known = globs.get(pattern);
	if (known) return known;
	const glob = new Bun.Glob(pattern);
	globs.set(pattern, glob);
	return glob;
}

/** Test files and type declarations are never hooks. */
const SKIPPED = /\.test\.|\.d\.[cm]?ts$/;

/**
 * The files of one directory matching `pattern` (one level, no recursion), sorted by name in
 * code-unit order. Hidden entries, `*.test.*`, `*.d.ts` and directories are skipped; symlinks to
 * files are followed. A missing directory is empty. A dangling symlink, a symlink loop or an
 * unreadable directory becomes a warning naming the path.
 *
 * One `readdir` with file types, names matched with `Bun.Glob` (hidden names never match): only
 * symlinks need a `stat`. Two glob scans per folder cost ≈ 4× as much on every CLI start and agent call.
 */
export async function scanDir(directory: string, pattern = "*"): Promise<ScanResult> {
	const dir = normalize(directory);
	let entries: Dirent[];
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch (error) {
		return { items: [], warnings: directoryProblem(dir, error) };
	}
	const glob = globFor(pattern);
	// Plain concatenation: `join` per file costs as much as the scan itself on a 1,000-file directory.
	const base = dir.endsWith("/") ? dir : `${dir}/`;
	const warnings: string[] = [];
	const files: string[] = [];
	for (const entry of entries) {
		const name = entry.name;
		if (name.startsWith(".") || SKIPPED.test(name) || !glob.match(name)) continue;
		if (entry.isFile()) files.push(name);
		else if (entry.isSymbolicLink()) {
			const problem = linkProblem(base + name);
			if (problem === "file") files.push(name);
			else if (problem) warnings.push(problem);
		}
	}
	const items = files.sort().map((name) => ({ name, path: base + name }));
	return { items, warnings };
}

/** What a symlink leads to: `"file"`, `undefined` for a directory (skipped), or the warning for a dangling link or a loop. */
function linkProblem(path: string): "file" | string | undefined {
	try {
		return statSync(path).isFile() ? "file" : undefined;
	} catch (error) {
		return describeError(path, error);
	}
}

function directoryProblem(dir: string, error: unknown): string[] {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT" || code === "ENOTDIR") {
		// Missing is silent; but the directory itself may be a broken link or a plain file.
		const stats = lstatSync(dir, { throwIfNoEntry: false });
		if (!stats) return [];
		return [stats.isSymbolicLink() ? `${dir}: dangling symlink, skipped` : `${dir}: not a directory, skipped`];
	}
	return [describeError(dir, error)];
}

function describeError(path: string, error: unknown): string {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === "ENOENT") return `${path}: dangling symlink, skipped`;
	if (code === "ELOOP") return `${path}: symlink loop, skipped`;
	if (code === "EACCES" || code === "EPERM") return `${path}: permission denied, skipped`;
	return `${path}: cannot read (${code ?? (error as Error).message}), skipped`;
}

/** File base name without its last extension (`bash.sh` → `bash`, `*.sh` → `*`, `Makefile` → `Makefile`). */
export function fileStem(name: string): string {
	const dot = name.lastIndexOf(".");
	return dot > 0 ? name.slice(0, dot) : name;
}

/** Where hooks come from, copied into every hook's `_source`. */
export interface HookOrigin {
	provider: string;
	providerName: string;
	level: HookLevel;
}

/** One directory scanned into hooks (the agents' kit declares the shape: an agent names its own folders). */
export type HookDir = HookFolder;

/** Scans the directories concurrently; hooks come out in the order of `dirs`, each sorted by name. */
export async function scanHookDirs(dirs: HookDir[], provider: { id: string; displayName: string }): Promise<LoadResult<Hook>> {
	const scans = await Promise.all(dirs.map((d) => scanDir(d.dir, d.pattern)));
	const items: Hook[] = [];
	const warnings: string[] = [];
	scans.forEach((scan, index) => {
		const { classify, level } = dirs[index] as HookDir;
		const source = { provider: provider.id, providerName: provider.displayName, level };
		for (const file of scan.items) {
			const name = fileStem(file.name);
			items.push(markKnownFile({ name, path: file.path, ...classify(name), level, _source: { ...source } }));
		}
		warnings.push(...scan.warnings);
	});
	return { items, warnings };
}
