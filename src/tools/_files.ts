import { randomBytes } from "node:crypto";
import { type Stats, constants } from "node:fs";
import { chmod, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "pathe";

/** Files above this size are refused by `read` and `edit`: they would not fit a model's context anyway. */
const MAX_TEXT_FILE_BYTES = 50 * 1024 * 1024;

/** `stat`, or `undefined` when nothing is there. */
async function statOrUndefined(path: string): Promise<Stats | undefined> {
	try {
		return await stat(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw error;
	}
}

/** Throws when `signal` is aborted, naming the tool. */
export function throwIfAborted(signal: AbortSignal | undefined, tool: string): void {
	if (signal?.aborted) throw new Error(`${tool} aborted`);
}

/**
 * Reads a UTF-8 text file for `read` / `edit`, with errors that name the path: missing, a directory,
 * too large, or binary (a NUL byte in the first 8 KB). A byte-order mark is kept, so a rewrite keeps it.
 * With `strict`, invalid UTF-8 is an error too: decoding it lossily and writing it back would corrupt it.
 */
export async function readTextFile(path: string, strict = false): Promise<string> {
	const info = await statOrUndefined(path);
	if (!info) throw new Error(`File not found: ${path}`);
	if (info.isDirectory()) throw new Error(`${path} is a directory, not a file`);
	if (!info.isFile()) throw new Error(`${path} is not a regular file`);
	if (info.size > MAX_TEXT_FILE_BYTES)
		throw new Error(
			`${path} is too large (${formatBytes(info.size)}; the limit is ${formatBytes(MAX_TEXT_FILE_BYTES)}); use the bash tool (head, tail, grep, sed -n) to inspect it`,
		);
	const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
	if (bytes.subarray(0, 8192).includes(0)) throw new Error(`${path} looks like a binary file (it contains NUL bytes); only text files can be read or edited`);
	try {
		return new TextDecoder("utf-8", { fatal: strict, ignoreBOM: true }).decode(bytes);
	} catch {
		throw new Error(`${path} is not valid UTF-8 text; editing it would corrupt it (use the bash tool instead)`);
	}
}

/**
 * Writes `content` to `path` atomically: a temporary file in the same directory is written, synced
 * and renamed over the target, so readers (and a crash) see either the old or the new file, never half
 * of one. Parent directories are created. An existing file keeps its permission bits, and a symlink
 * is followed so the link itself stays in place.
 */
export async function writeFileAtomic(path: string, content: string): Promise<number> {
	const existing = await statOrUndefined(path);
	if (existing?.isDirectory()) throw new Error(`${path} is a directory, not a file`);
	// Renaming a file over a FIFO, socket or device (a symlink to /dev/null included) would destroy it.
	if (existing && !existing.isFile()) throw new Error(`${path} is not a regular file (a FIFO, socket or device); refusing to replace it`);
	const target = existing ? await realpath(path) : path;
	const dir = dirname(target);
	try {
		await mkdir(dir, { recursive: true });
	} catch (error) {
		throw new Error(`Cannot create directory ${dir}: ${(error as Error).message}`, { cause: error });
	}
	const data = Buffer.from(content, "utf8");
	const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		const handle = await open(temp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o666);
		try {
			await handle.writeFile(data);
			await handle.sync();
		} finally {
			await handle.close();
		}
		if (existing) await chmod(temp, existing.mode & 0o7777);
		await rename(temp, target);
	} catch (error) {
		await rm(temp, { force: true }).catch(() => {});
		throw new Error(`Cannot write ${path}: ${(error as Error).message}`, { cause: error });
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

/** `1536` → `1.5 KB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
	return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
