import { XcshError } from "../errors.ts";
import { lstat, readdir, readFile, rm } from "node:fs/promises";
import { join } from "pathe";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { type AgentSpec, scriptMarker } from "./agents.ts";
import type { EntryChange } from "./entries.ts";
import { installError } from "./errors.ts";

/*
 * The `files` install layout (Cline): one executable per event, named after it, in one folder. A file
 * is ours when it holds the agent's {@link scriptMarker} line; anything else at one of our names is the
 * user's hook and is never overwritten (the install is refused, naming it) nor removed.
 */

/** One planned write or removal of an event's executable. */
export interface FileChange extends EntryChange {
	path: string;
	/** The new text (absent for a removal). */
	text?: string;
	/** The mode to write it with. */
	mode?: number;
}

/** The text of `path`, `undefined` when nothing is there; a directory, FIFO or device is refused. */
export async function readInstalledFile(path: string): Promise<string | undefined> {
	let info: Awaited<ReturnType<typeof lstat>>;
	try {
		info = await lstat(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw installError("io", path, (error as Error).message);
	}
	if (!info.isFile()) throw installError("shape", path, `${path}: not a regular file; not changed`);
	return readFile(path, "utf8");
}

const isOurs = (text: string, spec: AgentSpec) => text.split("\n").includes(scriptMarker(spec.id));

/** What installing `spec`'s executables into `dir` changes; refuses (before any write) a file of the user's at one of the names. */
export async function planFiles(dir: string, spec: AgentSpec, command: string): Promise<FileChange[]> {
	if (!spec.script) throw new XcshError("INTERNAL", `install: ${spec.id} has the files layout but no script()`);
	const changes: FileChange[] = [];
	for (const event of spec.events) {
		const path = join(dir, event.name);
		const text = spec.script(event, command);
		const existing = await readInstalledFile(path);
		if (existing === text) continue;
		if (existing !== undefined && !isOurs(existing, spec))
			throw installError("shape", path, `${path}: holds a ${spec.label} hook that is not ours; move it away first; nothing changed`);
		changes.push({
			action: existing === undefined ? "add" : "update",
			event: event.name,
			command,
			path,
			text,
			mode: spec.fileMode ?? 0o755,
		});
	}
	return changes;
}

/** Our executables in `dir` (any name: also events a newer install no longer writes). */
export async function findOurFiles(dir: string, spec: AgentSpec): Promise<FileChange[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch {
		return [];
	}
	const found: FileChange[] = [];
	for (const name of names.sort()) {
		const path = join(dir, name);
		const text = await readInstalledFile(path).catch(() => undefined);
		if (text !== undefined && isOurs(text, spec)) found.push({ action: "remove", event: name, command: path, path });
	}
	return found;
}

/** Writes (mode 0755 unless the spec says otherwise) or removes the planned files. */
export async function applyFiles(changes: FileChange[]): Promise<void> {
	for (const change of changes) {
		try {
			if (change.text === undefined) await rm(change.path);
			else await writeFileAtomic(change.path, change.text, { mode: change.mode ?? 0o755 });
		} catch (error) {
			throw installError("io", change.path, (error as Error).message);
		}
	}
}

/** A change as `install` reports it (without the file text). */
export const reported = ({ action, event, command }: FileChange): EntryChange => ({ action, event, command });
