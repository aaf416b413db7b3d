/** Built-in tools (`bash`, `read`, `write`, `edit`) with TypeBox parameters, plus input validation. */
export {
	BUILTIN_TOOL_NAMES,
	type BuiltinToolName,
	type BuiltinToolsOptions,
	createBuiltinTools,
	isBuiltinToolName,
} from "./builtin.ts";
export {
	BASH_OUTPUT_LIMIT_BYTES,
	type BashDetails,
	type BashParams,
	BashParamsSchema,
	type BashToolOptions,
	createBashTool,
	DEFAULT_BASH_TIMEOUT_MS,
} from "./bash.ts";
export { createReadTool, READ_MAX_BYTES, READ_MAX_LINES, type ReadDetails, type ReadParams, ReadParamsSchema } from "./read.ts";
export { createWriteTool, type WriteDetails, type WriteParams, WriteParamsSchema } from "./write.ts";
export { createEditTool, DIFF_CONTEXT_LINES, type EditDetails, type EditParams, EditParamsSchema } from "./edit.ts";
export { assertToolInput, validateToolInput } from "./validate-input.ts";
