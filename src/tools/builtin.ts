import type { AgentTool } from "../hooks/types.ts";
import { type BashToolOptions, createBashTool } from "./bash.ts";
import { createEditTool } from "./edit.ts";
import { createReadTool } from "./read.ts";
import { createWriteTool } from "./write.ts";

/** Names of the built-in tools, in the order they are usually offered to a model. */
export const BUILTIN_TOOL_NAMES = ["bash", "read", "write", "edit"] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Options of {@link createBuiltinTools}. */
export interface BuiltinToolsOptions {
	/** Options of the `bash` tool (default timeout). */
	bash?: BashToolOptions;
}

/** Whether `name` is one of {@link BUILTIN_TOOL_NAMES}. */
export function isBuiltinToolName(name: unknown): name is BuiltinToolName {
	return typeof name === "string" && (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}

/** The built-in tools, all working in `cwd`. */
export function createBuiltinTools(cwd: string, options: BuiltinToolsOptions = {}): Record<BuiltinToolName, AgentTool> {
	return {
		bash: createBashTool(cwd, options.bash),
		read: createReadTool(cwd),
		write: createWriteTool(cwd),
		edit: createEditTool(cwd),
	};
}
