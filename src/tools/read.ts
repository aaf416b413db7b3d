import { XcshError } from "../errors.ts";
import { type Static, Type } from "@sinclair/typebox";
import type { AgentTool } from "../hooks/types.ts";
import { formatBytes, readTextFile } from "./_files.ts";
import { defineTool } from "./define.ts";

/** Parameters of the `read` tool. */
export const ReadParamsSchema = Type.Object(
	{
		path: Type.String({ minLength: 1, description: "File to read; relative to the working directory, `~` for home" }),
		offset: Type.Optional(Type.Integer({ minimum: 1, description: "First line to return, 1-based (default 1)" })),
		limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of lines to return" })),
	},
	{ additionalProperties: false },
);
export type ReadParams = Static<typeof ReadParamsSchema>;

/** `details` of a `read` result. */
export interface ReadDetails {
	/** Absolute path that was read. */
	path: string;
	/** First line returned (1-based). */
	offset: number;
	/** Number of lines returned. */
	lines: number;
	/** Number of lines in the file. */
	totalLines: number;
	/** The output was cut short of what was asked by the line or byte cap. */
	truncated: boolean;
}

/** At most this many lines per call... */
export const READ_MAX_LINES = 2000;
/** ...and at most this many bytes of text. */
export const READ_MAX_BYTES = 50 * 1024;

/**
 * Creates the `read` tool. It returns the file's text exactly, without line numbers, so the model
 * can copy it verbatim into `edit`'s `oldText`; a bracketed note after a blank line says when more
 * lines follow and which `offset` continues. Missing files, directories, binary files and files over
 * 50 MB are errors naming the path.
 */
export function createReadTool(cwd: string): AgentTool<ReadParams, ReadDetails> {
	return defineTool<ReadParams, ReadDetails>(cwd, {
		name: "read",
		label: "Read",
		description:
			`Read a text file. Returns its content verbatim (no line numbers), at most ${READ_MAX_LINES} lines or ${formatBytes(READ_MAX_BYTES)} per call; ` +
			"use offset (1-based line) and limit to page through larger files.",
		parameters: ReadParamsSchema,
		async run(input, { resolve }) {
			const path = resolve(input.path);
			const text = await readTextFile(path);
			const endsWithNewline = text.endsWith("\n");
			const all = text === "" ? [] : (endsWithNewline ? text.slice(0, -1) : text).split("\n");
			const offset = input.offset ?? 1;
			if (offset > Math.max(all.length, 1))
				throw new XcshError("INVALID_INPUT", `offset ${offset} is past the end of ${path} (${all.length} lines)`);

			const wanted = Math.min(input.limit ?? Number.POSITIVE_INFINITY, all.length - offset + 1);
			const shown: string[] = [];
			let bytes = 0;
			let note = "";
			for (let i = offset - 1; shown.length < Math.min(wanted, READ_MAX_LINES); i++) {
				const line = all[i] ?? "";
				const size = Buffer.byteLength(line) + 1;
				if (bytes + size > READ_MAX_BYTES) {
					if (shown.length === 0) {
						shown.push(cutToBytes(line, READ_MAX_BYTES));
						note = `[Line ${i + 1} is ${formatBytes(size - 1)}; showing its first ${formatBytes(READ_MAX_BYTES)}. Use bash (e.g. cut -c or head -c) to see the rest.]`;
					}
					break;
				}
				shown.push(line);
				bytes += size;
			}

			const last = offset + shown.length - 1;
			const truncated = shown.length < wanted || note !== "";
			if (!note && last < all.length) note = `[Showing lines ${offset}-${last} of ${all.length}. Use offset=${last + 1} to continue.]`;
			let content = shown.join("\n");
			if (last === all.length && endsWithNewline && !note) content += "\n";
			if (note) content += `\n\n${note}`;
			const details: ReadDetails = { path, offset, lines: shown.length, totalLines: all.length, truncated };
			return { content: [{ type: "text", text: content }], details };
		},
	});
}

/** The longest prefix of `text` that fits in `limit` UTF-8 bytes, without splitting a character. */
function cutToBytes(text: string, limit: number): string {
	const bytes = Buffer.from(text, "utf8");
	let end = limit;
	while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
	return bytes.subarray(0, end).toString("utf8");
}
