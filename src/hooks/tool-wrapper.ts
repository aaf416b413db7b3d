import type { TSchema } from "@sinclair/typebox";
import type { HookRunner } from "./runner.ts";
import type { AgentTool, AgentToolResult, ToolCallEvent, ToolCallEventResult, ToolResultEventResult } from "./types.ts";

/**
 * Wraps a tool with `tool_call` / `tool_result` interception (SPEC §6):
 * 1. `tool_call` handlers may block; a handler that throws blocks too (fail closed) — the tool never runs.
 * 2. The tool runs with `signal` and `onUpdate` forwarded.
 * 3. On success, `tool_result` handlers may replace `content` and/or `details`.
 * 4. On failure, `tool_result` is emitted with `isError: true`, then the original error is rethrown.
 * Hooks cannot change the input in place, nor turn a failure into a success.
 */
export class HookToolWrapper<TParams extends Record<string, unknown> = Record<string, unknown>, TDetails = unknown>
	implements AgentTool<TParams, TDetails>
{
	readonly name: string;
	readonly label: string;
	readonly description: string;
	readonly parameters: TSchema;

	constructor(
		private readonly tool: AgentTool<TParams, TDetails>,
		private readonly runner: HookRunner,
	) {
		this.name = tool.name;
		this.label = tool.label;
		this.description = tool.description;
		this.parameters = tool.parameters;
	}

	// The five arguments are spelled out, not spread: rest/spread parameters cost this hot path a third
	// more (measured by `bun run bench`).
	execute(
		toolCallId: string,
		params: TParams,
		signal?: AbortSignal,
		onUpdate?: (partial: AgentToolResult<TDetails>) => void,
		context?: unknown,
	): Promise<AgentToolResult<TDetails>> {
		if (this.runner.hasHandlers("tool_call"))
			return this.gateThenRun(toolCallId, params, () => this.start(toolCallId, params, signal, onUpdate, context));
		const pending = this.start(toolCallId, params, signal, onUpdate, context);
		// Whether `tool_result` handlers exist is asked once the tool has settled, as the steps say.
		// A settled promise nobody listens to is the answer itself: an unhooked call then costs no
		// more turns of the event loop than calling the tool directly.
		if (Bun.peek.status(pending) !== "pending" && !this.runner.hasHandlers("tool_result")) return pending;
		return this.complete(pending, toolCallId, params);
	}

	/** Step 1: `tool_call` handlers decide; a block or a throwing handler stops the call. */
	private async gateThenRun(
		toolCallId: string,
		params: TParams,
		run: () => Promise<AgentToolResult<TDetails>>,
	): Promise<AgentToolResult<TDetails>> {
		const gate = await gateToolCall(this.runner, { type: "tool_call", toolName: this.name, toolCallId, input: params });
		if (gate.block) throw gate.error ?? new Error(gate.reason);
		return await this.complete(run(), toolCallId, params);
	}

	/** Step 2: runs the tool with `signal` and `onUpdate`; a synchronous throw becomes a rejection. */
	private start(
		toolCallId: string,
		params: TParams,
		signal?: AbortSignal,
		onUpdate?: (partial: AgentToolResult<TDetails>) => void,
		context?: unknown,
	): Promise<AgentToolResult<TDetails>> {
		try {
			return Promise.resolve(this.tool.execute(toolCallId, params, signal, onUpdate, context));
		} catch (error) {
			return Promise.reject(error);
		}
	}

	/** Steps 3 and 4: `tool_result` handlers see the outcome; a failure is rethrown as it was. */
	private async complete(pending: Promise<AgentToolResult<TDetails>>, toolCallId: string, params: TParams): Promise<AgentToolResult<TDetails>> {
		const { runner, name: toolName } = this;
		let result: AgentToolResult<TDetails>;
		try {
			result = await pending;
		} catch (error) {
			if (runner.hasHandlers("tool_result")) {
				const text = error instanceof Error ? error.message : String(error);
				await runner.emit({
					type: "tool_result",
					toolName,
					toolCallId,
					input: params,
					content: [{ type: "text", text }],
					details: undefined,
					isError: true,
				});
			}
			throw error;
		}

		if (!runner.hasHandlers("tool_result")) return result;
		const override = await runner.emit({
			type: "tool_result",
			toolName,
			toolCallId,
			input: params,
			content: result.content,
			details: result.details,
			isError: false,
		});
		return applyToolResult(result, override);
	}
}

/** The outcome of {@link gateToolCall}. */
export interface ToolCallGate {
	block: boolean;
	/** Why the call is blocked: the hook's reason (or the default), or the thrown error's message. */
	reason?: string;
	/** The error a handler threw (a non-Error value is wrapped); such a call is blocked. */
	error?: Error;
	/** What `tool_call` handlers returned, when nothing blocked. */
	result?: ToolCallEventResult;
}

/**
 * `tool_call` read fail-closed (SPEC §6 step 1): a `{block: true}` blocks with its reason (or
 * `Tool execution was blocked by a hook`), a handler that throws blocks with its error (a non-Error
 * becomes `Hook failed, blocking execution: <value>`). The wrapper, the CLI, `serve` and the test
 * harness all decide with this.
 */
export async function gateToolCall(runner: HookRunner, event: ToolCallEvent): Promise<ToolCallGate> {
	try {
		const result = await runner.emitToolCall(event);
		if (result?.block) return { block: true, reason: result.reason || "Tool execution was blocked by a hook", result };
		return { block: false, result };
	} catch (thrown) {
		const error = thrown instanceof Error ? thrown : new Error(`Hook failed, blocking execution: ${String(thrown)}`);
		return { block: true, reason: error.message, error };
	}
}

/** A tool's result with a `tool_result` override applied: `content` and `details` replaced where given (`??`). */
export function applyToolResult<R extends AgentToolResult<unknown>>(result: R, override: ToolResultEventResult | undefined): R {
	if (!override) return result;
	return { ...result, content: override.content ?? result.content, details: override.details ?? result.details };
}
