import { mkdir, readFile, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "pathe";
import { statOrUndefined, writeFileAtomic } from "../fs/atomic-write.ts";
import { isRecord } from "../json.ts";

/*
 * What `install` created, so that `uninstall` removes exactly that: a config file that did not exist
 * (and not one that did, even if all it holds afterwards is `{}`), and the folders made for it (never
 * one that was there before). The text of a config cannot say so, hence a small record per user in
 * `~/.xcsh/agent/installs.json`, keyed by the config's absolute path.
 */

/** What one install created for a config file. */
export interface Created {
	/** Whether the config file itself was new. */
	file: boolean;
	/** The folders created for it, deepest first. */
	dirs: string[];
}

type Record_ = Record<string, Created>;

const recordPath = (home: string) => join(home, ".xcsh", "agent", "installs.json");

/** The record; empty when missing or unreadable (then uninstall knows nothing more than the file says). */
async function readRecord(home: string): Promise<Record_> {
	let parsed: unknown;
	try {
		parsed = JSON.parse(await readFile(recordPath(home), "utf8"));
	} catch {
		return {};
	}
	const created = isRecord(parsed) && isRecord(parsed.created) ? parsed.created : {};
	const out: Record_ = {};
	for (const [file, entry] of Object.entries(created))
		if (isRecord(entry) && typeof entry.file === "boolean" && Array.isArray(entry.dirs))
			out[file] = { file: entry.file, dirs: entry.dirs.filter((d): d is string => typeof d === "string") };
	return out;
}

/** What install created for `file`, if it recorded it. */
export async function createdFor(home: string, file: string): Promise<Created | undefined> {
	return (await readRecord(home))[file];
}

/** Sets (or, with `undefined`, drops) the record of `file`. Throws when the record cannot be written. */
export async function recordCreated(home: string, file: string, created: Created | undefined): Promise<void> {
	const record = await readRecord(home);
	if (created === undefined && !(file in record)) return;
	if (created === undefined) delete record[file];
	else record[file] = created;
	if (Object.keys(record).length === 0) await rm(recordPath(home), { force: true });
	else {
		// Private, like the rest of the agent folder (serve --socket refuses one that others may write).
		await mkdir(dirname(recordPath(home)), { recursive: true, mode: 0o700 });
		await writeFileAtomic(recordPath(home), `${JSON.stringify({ version: 1, created: record }, null, 2)}\n`);
	}
}

/** The folders writing `file` would create, deepest first. */
export async function missingDirs(file: string): Promise<string[]> {
	const dirs: string[] = [];
	const exists = (dir: string) => statOrUndefined(dir).then(Boolean, () => true); // unreadable: not ours to remove
	for (let dir = dirname(file); dir !== dirname(dir) && !(await exists(dir)); dir = dirname(dir)) dirs.push(dir);
	return dirs;
}

/**
 * Removes each of `dirs` (deepest first) that holds `file` while it is empty; the folders removed.
 * Never removes anything inside a folder.
 */
export async function removeEmptyDirs(file: string, dirs: string[]): Promise<string[]> {
	const removed: string[] = [];
	for (const dir of dirs) {
		if (!file.startsWith(`${dir}/`)) break;
		try {
			await rmdir(dir); // fails on a folder that holds anything
		} catch {
			break;
		}
		removed.push(dir);
	}
	return removed;
}

/*
 * The folder layouts (Cline's hook files, OpenCode's and pi's plugin folder): the agent's "config" is a
 * folder, and what install may create is that folder and its parents. They are recorded as for a file,
 * keyed by the folder, and uninstall removes them once our files are gone and nothing else is in them.
 */

/** The folders a write into `dir` would create (`dir` itself first), to pass to {@link recordFolders}. */
export const missingFolders = (dir: string): Promise<string[]> => missingDirs(join(dir, "_"));

/** Records the folders install created for the folder `dir`; nothing when it created none (a reinstall keeps the record). */
export async function recordFolders(home: string, dir: string, dirs: string[]): Promise<void> {
	if (dirs.length > 0) await recordCreated(home, dir, { file: false, dirs });
}

/** After our files left `dir`: removes the folders install created for it while they are empty, and drops the record. */
export async function removeRecordedFolders(home: string, dir: string): Promise<string[]> {
	const created = await createdFor(home, dir);
	if (!created) return [];
	const removed = await removeEmptyDirs(join(dir, "_"), created.dirs);
	await recordCreated(home, dir, undefined).catch(() => {}); // a stale record only keeps folders in place
	return removed;
}
