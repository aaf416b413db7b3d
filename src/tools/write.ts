import { type Static, Type } from "@sinclair/typebox";
import type { AgentTool } from "../hooks/types.ts";
import { writeFileAtomic } from "./_files.ts";
import { defineTool } from "./define.ts";

/** Parameters of the `write` tool. */
export const WriteParamsSchema = Type.Object(
	{
		path: Type.String({ minLength: 1, description: "File to write; relative to the working directory, `~` for home" }),
		content: Type.String({ description: "The complete new content of the file" }),
	},
	{ additionalProperties: false },
);
export type WriteParams = Static<typeof WriteParamsSchema>;

/** `details` of a `write` result. */
export interface WriteDetails {
	/** Absolute path that was written. */
	path: string;
	/** UTF-8 bytes written. */
	bytes: number;
}

/**
 * Creates the `write` tool: creates or replaces a file with `content`, creating parent directories.
 * The write is atomic (temporary file in the same directory, synced, then renamed), so a crash leaves
 * either the old file or the new one; an existing file keeps its permissions.
 */
export function createWriteTool(cwd: string): AgentTool<WriteParams, WriteDetails> {
	return defineTool<WriteParams, WriteDetails>(cwd, {
		name: "write",
		label: "Write",
		description:
			"Create or overwrite a file with the given content (UTF-8). Parent directories are created. Prefer edit for changing part of an existing file.",
		parameters: WriteParamsSchema,
		async run(input, { resolve }) {
			const path = resolve(input.path);
			const bytes = await writeFileAtomic(path, input.content);
			return { content: [{ type: "text", text: `Wrote ${bytes} bytes to ${path}` }], details: { path, bytes } };
		},
	});
}
