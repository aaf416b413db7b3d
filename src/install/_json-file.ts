import { isRecord as isObject } from "../json.ts";
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { InstallError } from "./errors.ts";

/** A JSON config file as read: its value plus what is needed to write it back in its own style. */
export interface JsonFile {
	/** Absolute path. */
	path: string;
	/** Whether the file existed. */
	exists: boolean;
	/** The parsed top-level object (`{}` for a missing or empty file). */
	root: Record<string, unknown>;
	/** The exact text read (`undefined` when missing). */
	text?: string;
	/** Indentation to re-serialize with: a tab, or a number of spaces. */
	indent: string | number;
	/** Line ending, `\n` or `\r\n`. */
	eol: string;
	/** Whether the text ended with a line break (new files do). */
	finalNewline: boolean;
	/** A byte-order mark to keep in front. */
	bom: string;
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
		if (code === "ENOENT") return { path, exists: false, root: {}, indent: 2, eol: "\n", finalNewline: true, bom: "" };
		if (code === "EISDIR") throw new InstallError("not-a-file", path, `${path} is a directory, not a config file; not changed`);
		throw new InstallError("io", path, `cannot read ${path}: ${(error as Error).message}`);
	}
	let text: string;
	try {
		const info = await handle.stat();
		if (info.isDirectory()) throw new InstallError("not-a-file", path, `${path} is a directory, not a config file; not changed`);
		if (!info.isFile())
			throw new InstallError("not-a-file", path, `${path} is not a regular file (${fileKind(info)}); refusing to read or replace it`);
		text = await handle.readFile("utf8");
	} catch (error) {
		if (error instanceof InstallError) throw error;
		throw new InstallError("io", path, `cannot read ${path}: ${(error as Error).message}`);
	} finally {
		await handle.close();
	}
	const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
	const body = bom ? text.slice(1) : text;
	const style = {
		indent: detectIndent(body),
		eol: body.includes("\r\n") ? "\r\n" : "\n",
		finalNewline: /\n$/.test(body) || !body.trim(),
		bom,
	};
	if (!body.trim()) return { path, exists: true, root: {}, text, ...style };
	let parsed: unknown;
	try {
		parsed = JSON.parse(body);
	} catch (error) {
		throw new InstallError("parse", path, `${path} is not valid JSON (${(error as Error).message}); fix it first, it was not changed`);
	}
	if (!isObject(parsed))
		throw new InstallError("shape", path, `${path}: the top level must be a JSON object, found ${kindOf(parsed)}; not changed`);
	return { path, exists: true, root: parsed, text, ...style };
}

function fileKind(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
	if (info.isFIFO()) return "a FIFO";
	if (info.isSocket()) return "a socket";
	if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
	return "not a file";
}

/** The indentation of the first indented line: a tab, or its number of spaces (2 when there is none). */
function detectIndent(text: string): string | number {
	const match = /^([ \t]+)\S/m.exec(text);
	const lead = match?.[1];
	if (!lead) return 2;
	if (lead.startsWith("\t")) return "\t";
	return Math.min(lead.length, 10);
}

/** The text to write for `root`, in the style the file was read with. */
export function serializeJsonFile(file: JsonFile, root: Record<string, unknown>): string {
	let text = JSON.stringify(root, null, file.indent);
	if (file.eol !== "\n") text = text.replaceAll("\n", file.eol);
	return `${file.bom}${text}${file.finalNewline ? file.eol : ""}`;
}
