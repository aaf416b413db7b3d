import { isRecord as isObject } from "../json.ts";
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { installError, isInstallError } from "./errors.ts";

/** A JSON config file as read: its exact text (edited as text, never re-serialised) and its value. */
export interface JsonFile {
	/** Absolute path. */
	path: string;
	/** Whether the file existed. */
	exists: boolean;
	/** The parsed top-level object (`{}` for a missing or blank file). */
	root: Record<string, unknown>;
	/** The exact text read (`undefined` when missing); blank means there is nothing in it to keep. */
	text?: string;
}

/** `"array"`, `"string"`, `"null"` … for messages. */
export function kindOf(value: unknown): string {
	return value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

/**
 * Reads a JSON object file. Refuses, without ever writing it, a path that exists but is not a regular
 * file (checked on the opened descriptor, so a FIFO never blocks the read and a symlink is judged by
 * what it points to), a file that is not valid JSON, and a top level that is not an object.
 * A missing or whitespace-only file reads as `{}`: there is nothing in it to lose.
 */
export async function readJsonFile(path: string): Promise<JsonFile> {
	let handle: Awaited<ReturnType<typeof open>>;
	try {
		handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return { path, exists: false, root: {} };
		if (code === "EISDIR") throw installError("not-a-file", path, `${path} is a directory, not a config file; not changed`);
		throw installError("io", path, `cannot read ${path}: ${(error as Error).message}`);
	}
	let bytes: Uint8Array;
	try {
		const info = await handle.stat();
		if (info.isDirectory()) throw installError("not-a-file", path, `${path} is a directory, not a config file; not changed`);
		if (!info.isFile())
			throw installError("not-a-file", path, `${path} is not a regular file (${fileKind(info)}); refusing to read or replace it`);
		bytes = await handle.readFile();
	} catch (error) {
		if (isInstallError(error)) throw error;
		throw installError("io", path, `cannot read ${path}: ${(error as Error).message}`);
	} finally {
		await handle.close();
	}
	let text: string;
	try {
		// Strictly: a byte that is not UTF-8 would come back as U+FFFD, and the file is written back as text.
		text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		throw installError("parse", path, `${path} is not valid UTF-8 text; fix it first, it was not changed`);
	}
	const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
	if (/^[ \t\r\n]*$/.test(body)) return { path, exists: true, root: {}, text };
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch (error) {
		throw installError("parse", path, `${path} is not valid JSON (${(error as Error).message}); fix it first, it was not changed`);
	}
	if (!isObject(parsed))
		throw installError("shape", path, `${path}: the top level must be a JSON object, found ${kindOf(parsed)}; not changed`);
	return { path, exists: true, root: parsed, text };
}

function fileKind(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
	if (info.isFIFO()) return "a FIFO";
	if (info.isSocket()) return "a socket";
	if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
	return "not a file";
}
