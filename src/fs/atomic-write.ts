import { XcshError } from "../errors.ts";
import { randomBytes } from "node:crypto";
import { type Stats, constants } from "node:fs";
import { chmod, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "pathe";

/*
 * The one atomic writer of the project: the tools' write and edit, the trust store, `install`'s agent
 * configs and the approved copies of shell hooks all replace files through it.
 */

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
	/** Permission bits of a file that does not exist yet (default 0o666, less the umask); an existing file keeps its own. */
	mode?: number;
}

/** `stat`, or `undefined` when nothing is there. */
export async function statOrUndefined(path: string): Promise<Stats | undefined> {
	try {
		return await stat(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw error;
	}
}

/**
 * Writes `content` to `path` atomically: a temporary file in the same directory is written, synced
 * and renamed over the target, so readers (and a crash) see either the old or the new file, never half
 * of one. Parent directories are created. An existing file keeps its permission bits, and a symlink
 * is followed so the link itself stays in place.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<number> {
	const existing = await statOrUndefined(path);
	if (existing?.isDirectory()) throw new XcshError("NOT_A_REGULAR_FILE", `${path} is a directory, not a file`);
	// Renaming a file over a FIFO, socket or device (a symlink to /dev/null included) would destroy it.
	if (existing && !existing.isFile())
		throw new XcshError("NOT_A_REGULAR_FILE", `${path} is not a regular file (a FIFO, socket or device); refusing to replace it`);
	const target = existing ? await realpath(path) : path;
	const dir = dirname(target);
	try {
		await mkdir(dir, { recursive: true });
	} catch (error) {
		throw new XcshError("WRITE_FAILED", `Cannot create directory ${dir}: ${(error as Error).message}`, { cause: error });
	}
	const data = typeof content === "string" ? Buffer.from(content, "utf8") : content;
	const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, options.mode ?? 0o666);
		try {
			await handle.writeFile(data);
			await handle.sync();
		} finally {
			await handle.close();
		}
		if (existing) await chmod(temp, existing.mode & 0o7777);
		else if (options.mode !== undefined) await chmod(temp, options.mode); // exactly, whatever the umask
		await rename(temp, target);
	} catch (error) {
		await rm(temp, { force: true }).catch(() => {});
		throw new XcshError("WRITE_FAILED", `Cannot write ${path}: ${(error as Error).message}`, { cause: error });
	}
	await syncDir(dir);
	return data.byteLength;
}

/** Makes the rename itself durable; best effort, since some platforms cannot open a directory. */
async function syncDir(dir: string): Promise<void> {
	try {
		const handle = await open(dir, constants.O_RDONLY);
		await handle.sync().finally(() => handle.close());
	} catch {
		// The data is already synced; only the directory entry's durability is at stake.
	}
}
