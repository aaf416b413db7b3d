import type { TSchema } from "@sinclair/typebox";
import { DEFAULT_BLOCK_REASON, ToolBlockedError } from "../errors.ts";
import { describeValue, toSafeError } from "./_describe.ts";
import type { HookRunner } from "./runner.ts";
import type { AgentTool, AgentToolResult, ToolCallEvent, ToolCallEventResult, ToolResultEventResult } from "./types.ts";

export { ToolBlockedError };

/**
 * Wraps a tool with `tool_call` / `tool_result` interception (docs/contract.md#the-tool-wrapper):
 * 1. `tool_call` handlers may block, ask or replace the input; a handler that throws blocks too (fail
 *    closed), and so does a replaced input that fails the tool's `parameters` — the tool never runs.
 *    An ask goes to the person through `ctx.ui.confirm`; declined, or with no UI, the call is blocked.
 * 2. The tool runs with the final input, `signal` and `onUpdate` forwarded.
 * 3. On success, `tool_result` handlers (chained) may replace `content` and/or `details` (`null` clears them).
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
			return this.gateThenRun(toolCallId, params, (input) => this.start(toolCallId, input, signal, onUpdate, context));
		const pending = this.start(toolCallId, params, signal, onUpdate, context);
		// Whether `tool_result` handlers exist is asked once the tool has settled, as the steps say.
		// A settled promise nobody listens to is the answer itself: an unhooked call then costs no
		// more turns of the event loop than calling the tool directly.
		if (Bun.peek.status(pending) !== "pending" && !this.runner.hasHandlers("tool_result")) return pending;
		return this.complete(pending, toolCallId, params);
	}

	/** Step 1: `tool_call` handlers decide; a block, a throwing handler or an invalid new input stops the call. */
	private async gateThenRun(
		toolCallId: string,
		params: TParams,
		run: (input: TParams) => Promise<AgentToolResult<TDetails>>,
	): Promise<AgentToolResult<TDetails>> {
		const gate = await gateToolCall(this.runner, { type: "tool_call", toolName: this.name, toolCallId, input: params }, this.parameters);
		if (gate.block && gate.ask) {
			const answer = await askPerson(this.runner, gate.reason, this.name, gate.input ?? params);
			if (answer !== true) throw new ToolBlockedError(answer, gate.hookPath);
		} else if (gate.block) throw gate.error ?? new ToolBlockedError(gate.reason, gate.hookPath);
		const input = (gate.input ?? params) as TParams;
		return await this.complete(run(input), toolCallId, input);
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
	private async complete(
		pending: Promise<AgentToolResult<TDetails>>,
		toolCallId: string,
		params: TParams,
	): Promise<AgentToolResult<TDetails>> {
		const { runner, name: toolName } = this;
		let result: AgentToolResult<TDetails>;
		try {
			result = await pending;
		} catch (error) {
			if (runner.hasHandlers("tool_result")) {
				const text = error instanceof Error ? error.message : describeValue(error);
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
export type ToolCallGate =
	| {
			/**
			 * A hook asked (`{ask: true}`, no block): the person decides ({@link askPerson}); a caller that
			 * cannot ask reads it as the block it also is, so an ask never becomes an allow.
			 */
			block: true;
			ask: true;
			/** What the person is shown: the asking hook's reason, or {@link DEFAULT_ASK_REASON}. */
			reason: string;
			/** What the hooks returned (`{ask: true, reason?, input?}`). */
			result: ToolCallEventResult;
			/** The final input when a handler replaced it (checked like any replaced input). */
			input?: Record<string, unknown>;
			/** The hook that asked first. */
			hookPath?: string | undefined;
			error?: undefined;
	  }
	| {
			block: true;
			ask?: undefined;
			/** Why: the hook's reason (or the default), or the failure's message. Always a non-empty string. */
			reason: string;
			/** The error a handler threw (a non-Error value wrapped); absent for a plain `{block: true}`. */
			error?: Error;
			/** What the blocking handler returned. */
			result?: ToolCallEventResult | undefined;
			/** The hook that blocked or failed, when known. */
			hookPath?: string | undefined;
	  }
	| {
			block: false;
			ask?: undefined;
			/** What `tool_call` handlers returned (the last truthy result). */
			result?: ToolCallEventResult | undefined;
			/** The final input when a handler replaced it; absent when the original input stands. */
			input?: Record<string, unknown>;
			/** The hook whose result was kept, when any. */
			hookPath?: string | undefined;
	  };

/**
 * `tool_call` read fail-closed (docs/contract.md#the-tool-wrapper step 1): a `{block: true}` blocks with its reason (or
 * `Tool execution was blocked by a hook`); an `{ask: true}` is a block marked `ask`, which a caller
 * that can ask the person resolves with {@link askPerson}; a handler that throws, times out or returns an invalid
 * result blocks with its error (a non-Error becomes `Hook failed, blocking execution: <value>`);
 * with `parameters` (a schema, or a function finding one, asked only when a handler replaced the
 * input), a replaced input that fails them blocks, naming the field. The wrapper, the
 * CLI, `serve`, the bridges and the test harness all decide with this. Never rejects.
 */
export async function gateToolCall(
	runner: HookRunner,
	event: ToolCallEvent,
	parameters?: TSchema | (() => Promise<TSchema | undefined>),
): Promise<ToolCallGate> {
	let outcome: Awaited<ReturnType<HookRunner["decideToolCall"]>>;
	try {
		outcome = await runner.decideToolCall(event);
	} catch (thrown) {
		outcome = { error: thrown, hookPath: "(runner)" };
	}
	if ("error" in outcome) {
		const error = toSafeError(outcome.error, "Hook failed, blocking execution: ");
		return { block: true, reason: error.message || DEFAULT_BLOCK_REASON, error, hookPath: outcome.hookPath };
	}
	const { result, hookPath } = outcome;
	if (result?.block) return { block: true, reason: result.reason || DEFAULT_BLOCK_REASON, result, hookPath };
	const asked = result?.ask === true ? result : undefined;
	if (result?.input === undefined)
		return asked
			? { block: true, ask: true, reason: asked.reason || DEFAULT_ASK_REASON, result: asked, hookPath }
			: { block: false, result, hookPath };
	const schema = typeof parameters === "function" ? await parameters() : parameters;
	if (schema) {
		const { validateValue } = require("./validate.ts") as typeof import("./validate.ts");
		const checked = validateValue(schema, result.input, `${event.toolName} input.`);
		if (!checked.ok) {
			const reason = `Hook ${hookPath} replaced the input with an invalid one: ${checked.errors.join("; ")}`;
			return { block: true, reason, error: new ToolBlockedError(reason, hookPath), result, hookPath };
		}
	}
	if (asked) return { block: true, ask: true, reason: asked.reason || DEFAULT_ASK_REASON, result: asked, input: result.input, hookPath };
	return { block: false, result, input: result.input, hookPath };
}

/** The reason of an ask whose hook gave none. */
export const DEFAULT_ASK_REASON = "a hook asks for confirmation";

/** Why an ask is blocked where nobody can be asked (no UI, a piped run, an agent that cannot prompt). */
export function unaskedReason(reason: string): string {
	return `${reason} (a hook asks for confirmation, and there is no one to ask here, so the call is blocked)`;
}

/**
 * Puts a hook's ask to the person through the host's UI (`ctx.ui.confirm`): `true` when they allow
 * the call, else the reason it is blocked (declined: the hook's reason; no UI, or a UI that failed:
 * {@link unaskedReason}). The question names the tool and, for `bash`, the command.
 */
export async function askPerson(
	runner: HookRunner,
	reason: string,
	toolName: string,
	input: Record<string, unknown>,
): Promise<true | string> {
	if (!runner.getHasUI()) return unaskedReason(reason);
	const what = typeof input.command === "string" ? input.command : JSON.stringify(input);
	try {
		const yes = await runner.getUIContext().confirm(reason, `Allow ${toolName}: ${what.length > 400 ? `${what.slice(0, 400)}…` : what}`);
		return yes === true ? true : reason;
	} catch (error) {
		return `${unaskedReason(reason)}: the prompt failed: ${error instanceof Error ? error.message : describeValue(error)}`;
	}
}

/**
 * A tool's result with a `tool_result` override applied: `content` and `details` replaced where given.
 * "Given" is the chain's rule (what the next handler saw): anything but `undefined`, so `details: null`
 * clears the details here as it did for the handlers after it (a `??` would bring back what a hook
 * removed). A `null` content is never valid (the result schema rejects it) and is not applied.
 */
export function applyToolResult<R extends AgentToolResult<unknown>>(result: R, override: ToolResultEventResult | undefined): R {
	if (!override) return result;
	return {
		...result,
		content: override.content ?? result.content,
		details: override.details !== undefined ? override.details : result.details,
	};
}
