import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/*
 * The one reader of files whose path comes from an agent's payload (transcripts, Cursor's edited
 * file). Such a path may name a FIFO (opening it for reading blocks until a writer comes, reading it
 * blocks until one writes), `/dev/zero` (a read that never ends) or a file of any size, and a read of
 * it runs inside a hook call (`ctx.sessionManager` is a synchronous API). So the read is bounded
 * before it starts: the path is opened with O_NONBLOCK (a FIFO's open returns at once), only a regular
 * file is read (judged on the opened descriptor, so a symlink counts as what it points to and a file
 * swapped after a check is still caught), and at most `maxBytes` are read. A regular file of at most
 * `maxBytes` on a local disk is read in milliseconds, so the caller's timers and signal handlers run
 * right after it.
 */

/** What {@link readBoundedText} found: the text, or why nothing was read (one phrase, for a warning). */
export type BoundedRead = { ok: true; text: string; truncated: boolean } | { ok: false; reason: string };

/** Options of {@link readBoundedText}. */
export interface BoundedReadOptions {
	/** Read at most this many bytes. */
	maxBytes: number;
	/** A file larger than `maxBytes`: its first `maxBytes` (`truncated: true`), instead of refusing it. */
	partial?: boolean;
}

const CHUNK = 1024 * 1024;

/** "a FIFO", "a directory", … for a file that is not a regular one. */
export function fileKindOf(info: Stats): string {
	if (info.isDirectory()) return "a directory";
	if (info.isFIFO()) return "a FIFO";
	if (info.isCharacterDevice()) return "a character device";
	if (info.isBlockDevice()) return "a block device";
	if (info.isSocket()) return "a socket";
	return "not a regular file";
}

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * The UTF-8 text of the regular file at `path`, read synchronously with the bounds above (invalid
 * UTF-8 becomes U+FFFD, as `readFileSync(path, "utf8")` does). Never throws and never blocks on a
 * special file: a missing file, one that is not regular, one over `maxBytes` (unless `partial`) or a
 * read error comes back as `{ ok: false, reason }`.
 */
export function readBoundedText(path: string, options: BoundedReadOptions): BoundedRead {
	const { maxBytes } = options;
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { ok: false, reason: code === "EISDIR" ? "a directory, not a regular file" : (code ?? (error as Error).message) };
	}
	try {
		const info = fstatSync(fd);
		if (!info.isFile()) return { ok: false, reason: `${fileKindOf(info)}, not a regular file` };
		if (info.size > maxBytes && !options.partial) return { ok: false, reason: `${mib(info.size)}, over the ${mib(maxBytes)} limit` };
		// One byte past the limit tells a file that grew over it since fstat (or reports a size of 0, like /proc files).
		let buffer = Buffer.allocUnsafe(Math.min(info.size, maxBytes) + 1);
		let length = 0;
		for (let read = -1; read !== 0 && length <= maxBytes; length += read) {
			if (length === buffer.length) {
				const grown = Buffer.allocUnsafe(Math.min(length + Math.max(length, CHUNK), maxBytes + 1));
				buffer.copy(grown, 0, 0, length);
				buffer = grown;
			}
			read = readSync(fd, buffer, length, buffer.length - length, null);
		}
		const truncated = length > maxBytes;
		if (truncated && !options.partial) return { ok: false, reason: `over the ${mib(maxBytes)} limit` };
		const bytes = buffer.subarray(0, Math.min(length, maxBytes));
		// A cut inside a character drops that character instead of leaving a replacement mark.
		const text = truncated ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes, { stream: true }) : bytes.toString("utf8");
		return { ok: true, text, truncated };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { ok: false, reason: code === "EISDIR" ? "a directory, not a regular file" : (code ?? (error as Error).message) };
	} finally {
		closeSync(fd);
	}
}
