import { isThenable } from "../primordials.ts";
import { type AnyEvent, type DispatchTarget, invalidResultError, invoke, report, type TimeoutOf } from "./_dispatch.ts";
import { isHookResult } from "./checks.ts";
import type { HookEventType } from "./schemas.ts";
import type { AnyHookHandler, HookContext, LoadedHook } from "./types.ts";

/*
 * The loops of the combine rules that have a method of their own on the runner: a `chain` resolving
 * the final values (`emitContext`) and `first` (`emitBeforeAgentStart`). Errors are reported and
 * dispatch continues, as in `emit`.
 */

/**
 * A `chain` rule resolving the final values (`context`): each handler sees the chained fields as the
 * handlers before it replaced them (a result's field replaces unless `undefined`); `event` holds the
 * caller's copies. Errors and bad results are reported and the chain continues. Resolves the event as
 * the last handler left it.
 */
export async function dispatchChain(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	fields: readonly string[],
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<AnyEvent> {
	const type = event.type;
	const ms = timeoutOf ? timeoutOf(type) : 0;
	let current = event;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get(type);
		if (handlers === undefined) continue;
		for (let i = 0; i < handlers.length; i++) {
			try {
				// A fresh event per handler: one handler's reassigning `event.messages` is not seen by the next.
				const seen = { ...current };
				let result = ms ? invoke(handlers[i] as AnyHookHandler, seen, ctx, ms) : (handlers[i] as AnyHookHandler)(seen, ctx);
				if (isThenable(result)) result = await result;
				if (!result) continue;
				if (!isHookResult(type as HookEventType, result)) throw invalidResultError((hooks[h] as LoadedHook).path, type, result);
				const next: Record<string, unknown> = { ...current };
				for (let f = 0; f < fields.length; f++) {
					const value = (result as Record<string, unknown>)[fields[f] as string];
					if (value !== undefined) next[fields[f] as string] = value;
				}
				current = next as AnyEvent;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, type, error);
			}
		}
	}
	return current;
}

/**
 * A `first` rule (`before_agent_start`): every handler runs on a fresh copy of the event (one
 * handler's change to `event.prompt` is not seen by the next, as upstream); the first result carrying
 * `field` (`message`) is kept.
 */
export async function dispatchFirst(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	field: string,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<unknown> {
	const type = event.type;
	const ms = timeoutOf ? timeoutOf(type) : 0;
	let kept: unknown;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get(type);
		if (handlers === undefined) continue;
		for (let i = 0; i < handlers.length; i++) {
			try {
				const fresh = { ...event };
				let result = ms ? invoke(handlers[i] as AnyHookHandler, fresh, ctx, ms) : (handlers[i] as AnyHookHandler)(fresh, ctx);
				if (isThenable(result)) result = await result;
				if (!result) continue;
				if (!isHookResult(type as HookEventType, result)) throw invalidResultError((hooks[h] as LoadedHook).path, type, result);
				if (!kept && (result as Record<string, unknown>)[field]) kept = result;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, type, error);
			}
		}
	}
	return kept;
}
