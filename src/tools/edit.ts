import { XcshError } from "../errors.ts";
import { type Static, Type } from "@sinclair/typebox";
import type { AgentTool } from "../hooks/types.ts";
import { readTextFile, throwIfAborted, writeFileAtomic } from "./_files.ts";
import { defineTool } from "./define.ts";

/** Parameters of the `edit` tool. */
export const EditParamsSchema = Type.Object(
	{
		path: Type.String({ minLength: 1, description: "File to edit; relative to the working directory, `~` for home" }),
		oldText: Type.String({ minLength: 1, description: "Exact text to replace; must occur exactly once in the file" }),
		newText: Type.String({ description: "Replacement text" }),
	},
	{ additionalProperties: false },
);
export type EditParams = Static<typeof EditParamsSchema>;

/** `details` of an `edit` result. */
export interface EditDetails {
	/** Absolute path that was edited. */
	path: string;
	/** Unified-style diff of the changed lines with up to {@link DIFF_CONTEXT_LINES} lines of context. */
	diff: string;
}

/** Unchanged lines shown around a change in {@link EditDetails.diff}. */
export const DIFF_CONTEXT_LINES = 3;

/**
 * Creates the `edit` tool: replaces the one exact occurrence of `oldText` with `newText` (no regex, no
 * `$` patterns, no whitespace normalisation). Zero or several occurrences are errors that leave the
 * file untouched; the write is atomic and keeps the file's permissions.
 */
export function createEditTool(cwd: string): AgentTool<EditParams, EditDetails> {
	return defineTool<EditParams, EditDetails>(cwd, {
		name: "edit",
		label: "Edit",
		description:
			"Replace an exact piece of text in a file. oldText must match the file exactly (whitespace included) and occur exactly once; " +
			"add surrounding lines to make it unique.",
		parameters: EditParamsSchema,
		async run({ oldText, newText, ...input }, { signal, resolve }) {
			const path = resolve(input.path);
			if (oldText === newText) throw new XcshError("INVALID_INPUT", `newText is identical to oldText; nothing would change in ${path}`);
			const before = await readTextFile(path, true);
			const at = before.indexOf(oldText);
			if (at === -1) {
				const hint = before.includes("\r\n") && /(?<!\r)\n/.test(oldText) ? " (the file uses CRLF line endings)" : "";
				throw new XcshError("INVALID_INPUT", `oldText not found in ${path}${hint}`);
			}
			const matches = countMatches(before, oldText, at);
			if (matches > 1)
				throw new XcshError(
					"INVALID_INPUT",
					`oldText matches ${matches} times in ${path}; it must match exactly once. Add surrounding context to oldText to make it unique.`,
				);
			const after = before.slice(0, at) + newText + before.slice(at + oldText.length);
			throwIfAborted(signal, "edit");
			await writeFileAtomic(path, after);
			const diff = lineDiff(before, after, path);
			return { content: [{ type: "text", text: `Edited ${path}\n${diff}` }], details: { path, diff } };
		},
	});
}

/** Occurrences of `needle` in `text`, overlapping ones included (each is a possible edit site). */
function countMatches(text: string, needle: string, first: number): number {
	let count = 0;
	for (let i = first; i !== -1; i = text.indexOf(needle, i + 1)) count++;
	return count;
}

/**
 * A one-hunk unified-style diff: the common leading and trailing lines are trimmed, the rest is shown
 * as `-` / `+` lines between up to {@link DIFF_CONTEXT_LINES} unchanged lines on each side.
 */
function lineDiff(before: string, after: string, path: string): string {
	const a = splitLines(before);
	const b = splitLines(after);
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	const from = Math.max(0, head - DIFF_CONTEXT_LINES);
	const removed = a.slice(head, a.length - tail);
	const added = b.slice(head, b.length - tail);
	const contextAfter = a.slice(a.length - tail, Math.min(a.length, a.length - tail + DIFF_CONTEXT_LINES));
	const contextBefore = a.slice(from, head);
	const oldCount = contextBefore.length + removed.length + contextAfter.length;
	const newCount = contextBefore.length + added.length + contextAfter.length;
	const range = (count: number) => `${count === 0 ? from : from + 1},${count}`;
	return [
		`--- ${path}`,
		`+++ ${path}`,
		`@@ -${range(oldCount)} +${range(newCount)} @@`,
		...contextBefore.map((line) => ` ${line}`),
		...removed.map((line) => `-${line}`),
		...added.map((line) => `+${line}`),
		...(removed.length + added.length === 0 ? ["\\ only the newline at the end of the file changed"] : []),
		...contextAfter.map((line) => ` ${line}`),
	].join("\n");
}

/** Lines of `text`; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
	if (text === "") return [];
	return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}
