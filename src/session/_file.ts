import { closeSync, fstatSync, fsyncSync, linkSync, openSync, readFileSync, readSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "pathe";
import type { SessionHeader } from "./types.ts";

/**
 * Writes `text` at the end of the file behind `fd` (opened with O_APPEND) and fsyncs it.
 * One `write` call in the normal case, so a line lands whole or (after a crash mid-call) as a torn
 * tail that the loader skips; a short write is finished rather than left torn.
 */
export function appendDurably(fd: number, text: string): void {
	const bytes = Buffer.from(text, "utf8");
	let offset = 0;
	while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
	fsyncSync(fd);
}

/**
 * Makes a newly created file's directory entry durable too. Best effort: some platforms and
 * file systems cannot fsync a directory, and the file's own data is already synced.
 */
function syncDirectory(dir: string): void {
	let fd: number | undefined;
	try {
		fd = openSync(dir, "r");
		fsyncSync(fd);
	} catch {
		// not supported here; nothing more to do
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

/** `error` is a Node-style system error with this `code` (e.g. "ENOENT"). */
export function hasErrorCode(error: unknown, code: string): boolean {
	return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * Opens `file` for appending and makes the header durable; returns the fd, kept for the session's life.
 * A new file (`ax`) appears with its header already in it: the header is written to a private file that
 * is then hard-linked into place, so a concurrent process (bridge calls of one agent session run side by
 * side) never sees it empty or half-written and never adds a second header; the link fails with EEXIST
 * when another process won, and the caller loads that one's session.
 */
export function writeHeader(file: string, flags: "a" | "ax", separator: string, header: SessionHeader): number {
	if (flags === "ax") {
		const draft = `${file}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.new`;
		const draftFd = openSync(draft, "wx");
		try {
			appendDurably(draftFd, `${JSON.stringify(header)}\n`);
		} finally {
			closeSync(draftFd);
		}
		try {
			linkSync(draft, file);
		} finally {
			unlinkSync(draft);
		}
		syncDirectory(dirname(file));
		return openSync(file, "a");
	}
	const fd = openSync(file, flags);
	try {
		appendDurably(fd, `${separator}${JSON.stringify(header)}\n`);
	} catch (error) {
		closeSync(fd);
		throw error;
	}
	syncDirectory(dirname(file));
	return fd;
}

/** The file's text, or `undefined` when it does not exist. */
export function readIfExists(file: string): string | undefined {
	try {
		return readFileSync(file, "utf8");
	} catch (error) {
		if (hasErrorCode(error, "ENOENT")) return undefined;
		throw error;
	}
}

/** Whether the file behind `fd` is empty or ends in "\n" now (read through its path: `fd` may be write-only). */
export function endsWithNewline(fd: number): boolean {
	const size = fstatSync(fd).size;
	if (size === 0) return true;
	const path = `/proc/self/fd/${fd}`;
	let reader: number | undefined;
	try {
		reader = openSync(path, "r");
		const last = Buffer.alloc(1);
		readSync(reader, last, 0, 1, size - 1);
		return last[0] === 0x0a;
	} catch {
		return false; // cannot tell (no /proc): keep the separator, as before
	} finally {
		if (reader !== undefined) closeSync(reader);
	}
}
