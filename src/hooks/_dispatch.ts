import type { AgentMessage } from "../messages.ts";
import type { AnyHookHandler, BeforeAgentStartEventResult, HookContext, HookError, LoadedHook, ToolCallEventResult } from "./types.ts";

/*
 * The dispatch loops behind HookRunner's `emit*` methods (SPEC §5). They are plain module
 * functions taking what they need as arguments, with indexed loops, so the async frame an emit
 * suspends and resumes on every awaited handler stays small: on the hot path this keeps `emit`
 * within a few percent of a hand-written `Map` + `await` loop. Handlers that do not return a
 * promise are never awaited.
 */

/** The event shape every loop passes through. */
type AnyEvent = { readonly type: string; readonly [key: string]: unknown };

/** What a loop needs from its runner: where handler errors go. */
export interface DispatchTarget {
	emitError(error: HookError): void;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
	value instanceof Promise ||
	(value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function");

/** Only these events keep handler results in `emit`. */
function keepsResult(type: string): boolean {
	return type.startsWith("session_before_") || type === "tool_result" || type === "session.compacting";
}

/** Calls a handler; with `ms > 0`, an async result races a timeout that rejects. */
function invoke(handler: AnyHookHandler, event: AnyEvent, ctx: HookContext, ms: number): unknown {
	const result = handler(event, ctx);
	if (!ms || !isThenable(result)) return result;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${event.type} handler timed out after ${ms} ms`)), ms);
	});
	return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
}

function report(target: DispatchTarget, hook: LoadedHook, event: string, error: unknown): void {
	target.emitError({
		hookPath: hook.path,
		event,
		error: error instanceof Error ? error.message : String(error),
		stack: error instanceof Error ? error.stack : undefined,
	});
}

/** The timeout of one event's handlers in ms (`0`: none). */
export type TimeoutOf = (type: string) => number;

/**
 * `emit`: errors are reported and dispatch continues. `session_before_*` keeps the last truthy
 * result and returns at once on `cancel: true`; `tool_result` and `session.compacting` keep the
 * last truthy result; every other event resolves `undefined`.
 */
export async function dispatchEmit(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<unknown> {
	const type = event.type;
	let keep: boolean | undefined;
	let cancellable = false;
	let ms = 0;
	let last: unknown;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get(type);
		if (handlers === undefined) continue;
		if (keep === undefined) {
			keep = keepsResult(type);
			cancellable = keep && type.startsWith("session_before_");
			ms = timeoutOf ? timeoutOf(type) : 0;
		}
		for (let i = 0; i < handlers.length; i++) {
			try {
				let result = ms ? invoke(handlers[i] as AnyHookHandler, event, ctx, ms) : (handlers[i] as AnyHookHandler)(event, ctx);
				if (isThenable(result)) result = await result;
				if (!keep || !result) continue;
				last = result;
				if (cancellable && (result as { cancel?: boolean }).cancel) return result;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, type, error);
			}
		}
	}
	return last;
}

/** `emitToolCall`: errors propagate; the last truthy result wins; the first `{block: true}` returns at once. */
export async function dispatchToolCall(
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<ToolCallEventResult | undefined> {
	const ms = timeoutOf ? timeoutOf("tool_call") : 0;
	let last: ToolCallEventResult | undefined;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get("tool_call");
		if (handlers === undefined) continue;
		for (let i = 0; i < handlers.length; i++) {
			let result = ms ? invoke(handlers[i] as AnyHookHandler, event, ctx, ms) : (handlers[i] as AnyHookHandler)(event, ctx);
			if (isThenable(result)) result = await result;
			if (!result) continue;
			last = result as ToolCallEventResult;
			if (last.block) return last;
		}
	}
	return last;
}

/** `emitContext` on a copy of the messages: each handler sees the previous one's; errors are reported. */
export async function dispatchContext(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	messages: AgentMessage[],
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<AgentMessage[]> {
	const ms = timeoutOf ? timeoutOf("context") : 0;
	let current = messages;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get("context");
		if (handlers === undefined) continue;
		for (let i = 0; i < handlers.length; i++) {
			try {
				const event = { type: "context", messages: current };
				let result = ms ? invoke(handlers[i] as AnyHookHandler, event, ctx, ms) : (handlers[i] as AnyHookHandler)(event, ctx);
				if (isThenable(result)) result = await result;
				const replaced = (result as { messages?: AgentMessage[] } | undefined)?.messages;
				if (replaced) current = replaced;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, "context", error);
			}
		}
	}
	return current;
}

/** `emitBeforeAgentStart`: every handler runs, the first result carrying `message` is kept. */
export async function dispatchBeforeAgentStart(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<BeforeAgentStartEventResult | undefined> {
	const ms = timeoutOf ? timeoutOf("before_agent_start") : 0;
	let kept: BeforeAgentStartEventResult | undefined;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get("before_agent_start");
		if (handlers === undefined) continue;
		for (let i = 0; i < handlers.length; i++) {
			try {
				let result = ms ? invoke(handlers[i] as AnyHookHandler, event, ctx, ms) : (handlers[i] as AnyHookHandler)(event, ctx);
				if (isThenable(result)) result = await result;
				if (!kept && (result as BeforeAgentStartEventResult | undefined)?.message) kept = result as BeforeAgentStartEventResult;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, "before_agent_start", error);
			}
		}
	}
	return kept;
}
