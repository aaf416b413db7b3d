import type { AgentTool, AgentToolResult } from "../hooks/types.ts";
import { resolvePath } from "../paths.ts";
import { throwIfAborted } from "./_files.ts";
import { assertToolInput } from "./validate-input.ts";

/** What a tool's body gets besides its checked input. */
export interface ToolRunContext<TDetails> {
	toolCallId: string;
	signal?: AbortSignal | undefined;
	onUpdate?: ((partial: AgentToolResult<TDetails>) => void) | undefined;
	/** A path from the input, resolved like every tool does: `~` home, relative against the tool's cwd. */
	resolve(path: string): string;
}

/** A tool's definition for {@link defineTool}: the `AgentTool` fields, and a body that receives checked input. */
export interface ToolDefinition<TParams, TDetails> extends Omit<AgentTool<TParams, TDetails>, "execute"> {
	run(input: TParams, context: ToolRunContext<TDetails>): Promise<AgentToolResult<TDetails>>;
}

/**
 * A built-in tool with the prologue every tool shares written once: the input is checked against
 * `parameters` (errors name the tool and the field), an aborted signal stops the call before any work,
 * and paths resolve against `cwd`.
 */
export function defineTool<TParams, TDetails>(cwd: string, definition: ToolDefinition<TParams, TDetails>): AgentTool<TParams, TDetails> {
	const { run, ...fields } = definition;
	const resolve = (path: string) => resolvePath(path, cwd);
	return {
		...fields,
		async execute(toolCallId, params, signal, onUpdate) {
			const input = assertToolInput<TParams>(fields, params);
			throwIfAborted(signal, fields.name);
			return run(input, { toolCallId, signal, onUpdate, resolve });
		},
	};
}
