import type { AgentMessage } from "../messages.ts";
import { withTimeout } from "../timeouts.ts";
import { checkIntrinsicsAfter, checkIntrinsicsBefore, damageCount, handlerRunning } from "../intrinsic-damage.ts";
import { awaitChanged } from "../intrinsics.ts";
import {
	ArrayPrototypeJoin,
	ArrayPrototypePush,
	ErrorCtor,
	isThenable,
	MapPrototypeGet,
	ObjectFreeze,
	PromisePrototypeThen,
	SafePromise,
	SafeStructuredClone,
} from "../primordials.ts";
import { describeValue, errorMessage, errorStack, toSafeError } from "./_describe.ts";
import { frozenCopy } from "../freeze.ts";
import { isHookResult } from "./checks.ts";
import type { HookEventType } from "./schemas.ts";
import type {
	AnyHookHandler,
	BeforeAgentStartEventResult,
	HookContext,
	HookError,
	LoadedHook,
	ToolCallEventResult,
	ToolResultEventResult,
} from "./types.ts";

/*
 * The dispatch loops behind HookRunner's `emit*` methods (docs/contract.md#the-runner). They are plain module
 * functions taking what they need as arguments, with indexed loops, so the async frame an emit
 * suspends and resumes on every awaited handler stays small: on the hot path this keeps `emit`
 * within a few percent of a hand-written `Map` + `await` loop. Handlers that do not return a
 * promise are never awaited. Every truthy result of an event that takes one is checked with the
 * generated checks (no TypeBox on this path); TypeBox is loaded only to explain a bad result.
 */

/** The event shape every loop passes through. */
type AnyEvent = { readonly type: string; readonly [key: string]: unknown };

/** What a loop needs from its runner: where handler errors go. */
export interface DispatchTarget {
	emitError(error: HookError): void;
}

/** Only these events keep handler results in `emit`. */
function keepsResult(type: string): boolean {
	return (
		type.startsWith("session_before_") ||
		type === "tool_result" ||
		type === "session.compacting" ||
		type === "subagent_start" ||
		type === "permission_request"
	);
}

/** Calls a handler; with `ms > 0`, an async result races a timeout that rejects. */
function invoke(handler: AnyHookHandler, event: AnyEvent, ctx: HookContext, ms: number): unknown {
	return timed(handler(event, ctx), event.type, ms);
}

/** A handler's result; with `ms > 0`, an async one races a timeout that rejects. */
function timed(result: unknown, type: string, ms: number): unknown {
	if (!ms || !isThenable(result)) return result;
	return withTimeout(result as Promise<unknown>, ms, (): never => {
		throw new ErrorCtor(`${type} handler timed out after ${ms} ms`);
	});
}

function report(target: DispatchTarget, hook: LoadedHook, event: string, error: unknown): void {
	target.emitError({ hookPath: hook.path, event, error: errorMessage(error), stack: errorStack(error) });
}

/** The error for a result that fails its event's schema, naming the hook, the event and each field. */
export function invalidResultError(hookPath: string, type: string, value: unknown): Error {
	const { validateResult } = require("./validate.ts") as typeof import("./validate.ts");
	let why: string;
	try {
		const checked = validateResult(type as HookEventType, value);
		why = checked.ok ? "rejected" : checked.errors.join("; ");
	} catch {
		why = `${type} result: not a result object (got ${describeValue(value)})`;
	}
	return new Error(`Hook ${hookPath} returned an invalid ${type} result: ${why}`);
}

/** The timeout of one event's handlers in ms (`0`: none). */
export type TimeoutOf = (type: string) => number;

/**
 * `emit`: errors are reported and dispatch continues. `session_before_*` keeps the last truthy
 * result and returns at once on `cancel: true`; `session.compacting` keeps the last truthy result;
 * `permission_request` returns the first `{decision: "deny"}` at once, else the last result;
 * `tool_result` is chained: each handler sees `content`/`details` as replaced before it, and the
 * result is everything the handlers replaced (so a later handler cannot drop an earlier redaction).
 * A result that fails its schema is reported and ignored. Every other event resolves `undefined`.
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
	let chained = false;
	let ms = 0;
	let last: unknown;
	let current = event;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get(type);
		if (handlers === undefined) continue;
		if (keep === undefined) {
			keep = keepsResult(type);
			cancellable = keep && (type.startsWith("session_before_") || type === "subagent_start");
			chained = type === "tool_result";
			ms = timeoutOf ? timeoutOf(type) : 0;
		}
		for (let i = 0; i < handlers.length; i++) {
			try {
				let result = ms ? invoke(handlers[i] as AnyHookHandler, current, ctx, ms) : (handlers[i] as AnyHookHandler)(current, ctx);
				if (isThenable(result)) result = await result;
				if (!keep || !result) continue;
				if (!isHookResult(type as HookEventType, result)) throw invalidResultError((hooks[h] as LoadedHook).path, type, result);
				if (chained) {
					const replaced = result as ToolResultEventResult;
					last = mergeReplacements(last as ToolResultEventResult | undefined, replaced);
					current = {
						...current,
						content: replaced.content !== undefined ? replaced.content : current.content,
						details: replaced.details !== undefined ? replaced.details : current.details,
					};
					continue;
				}
				last = result;
				if (cancellable && ((result as { cancel?: boolean }).cancel || (result as { block?: boolean }).block)) return result;
				// permission_request: the first deny wins at once; otherwise the last allow stands.
				if ((result as { decision?: string }).decision === "deny") return result;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, type, error);
			}
		}
	}
	return last;
}

/**
 * One rule for a `tool_result` field, in the chain and in the result alike: `undefined` (absent, or
 * written `details: undefined`) is "not replaced"; any other value, `null` included, replaces. So a
 * later handler returning `{content, details: undefined}` never drops an earlier `details`, and
 * `details: null` clears them for the next handler and for the caller.
 */
function mergeReplacements(earlier: ToolResultEventResult | undefined, later: ToolResultEventResult): ToolResultEventResult {
	const merged: ToolResultEventResult = { ...earlier };
	if (later.content !== undefined) merged.content = later.content;
	if (later.details !== undefined) merged.details = later.details;
	if (later.isError !== undefined) merged.isError = later.isError;
	return merged;
}

/** What {@link dispatchToolCall} decided, and which hook decided it. */
export type ToolCallOutcome =
	| { result: ToolCallEventResult | undefined; hookPath?: string | undefined }
	| { error: unknown; hookPath: string };

/**
 * `emitToolCall`: the first `{block: true}` returns at once; otherwise an `{ask: true}` from any
 * handler survives the allows after it (block > ask > allow: the result is the first ask, with its
 * reason), else the last truthy result wins; either carries the final `input` when a handler replaced
 * it (chained: later handlers see it). Each
 * handler gets a frozen event with a frozen copy of the input. A handler that throws, times out or
 * returns an invalid result ends dispatch with that error (the caller blocks).
 *
 * A handler shares the realm with this loop and the guards after it: the built-ins they use are
 * compared after each handler, and a change (put back at once, see src/intrinsics.ts) ends dispatch
 * with an error naming the hook. The loop itself uses the built-ins taken at start-up (primordials.ts).
 */
export async function dispatchToolCall(
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<ToolCallOutcome> {
	const epoch = damageCount();
	const before = checkIntrinsicsBefore(() => guardingHooks(hooks));
	if (before !== undefined) return { error: new ErrorCtor(before), hookPath: firstGuard(hooks) };
	const ran: string[] = [];
	const outcome = await toolCallLoop(hooks, event, ctx, timeoutOf, epoch, ran);
	// Once per call, everything watched: what the quick check after each handler does not compare.
	const after = checkIntrinsicsAfter(() => (ran.length === 1 ? `hook ${ran[0]}` : `a hook (one of ${ArrayPrototypeJoin(ran, ", ")})`));
	// A change found now outranks what was decided after it, a block included: its reason could be forged too.
	if (after === undefined) return outcome;
	return {
		error: new ErrorCtor(after),
		hookPath: ran.length === 1 ? (ran[0] as string) : "error" in outcome ? outcome.hookPath : firstGuard(hooks),
	};
}

/** The paths of the hooks that handle `tool_call`, for a reason that cannot name one. */
function guardingHooks(hooks: readonly LoadedHook[]): string {
	const paths: string[] = [];
	for (let h = 0; h < hooks.length; h++) {
		const hook = hooks[h] as LoadedHook;
		if (MapPrototypeGet(hook.handlers, "tool_call") !== undefined) ArrayPrototypePush(paths, hook.path);
	}
	return ArrayPrototypeJoin(paths, ", ");
}

const firstGuard = (hooks: readonly LoadedHook[]) => {
	for (let h = 0; h < hooks.length; h++)
		if (MapPrototypeGet((hooks[h] as LoadedHook).handlers, "tool_call") !== undefined) return (hooks[h] as LoadedHook).path;
	return "(runner)";
};

/** After a handler of `hookPath`: why the call must be denied when built-ins changed, here or in another call since `epoch`. */
function damageSince(hookPath: string, epoch: number): string | undefined {
	const reason = checkIntrinsicsAfter(`hook ${hookPath}`, true);
	if (reason !== undefined) return reason;
	if (damageCount() !== epoch)
		return "a hook changed JavaScript built-ins while this call was decided (another call's hook); nothing computed since can be trusted, so the call is denied (fail closed)";
	return undefined;
}

async function toolCallLoop(
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
	epoch: number,
	ran: string[],
): Promise<ToolCallOutcome> {
	const ms = timeoutOf ? timeoutOf("tool_call") : 0;
	let last: ToolCallEventResult | undefined;
	let decidedBy: string | undefined;
	let replaced: Record<string, unknown> | undefined;
	let current: AnyEvent | undefined;
	let asked: { reason: string | undefined; hookPath: string } | undefined;
	for (let h = 0; h < hooks.length; h++) {
		const hook = hooks[h] as LoadedHook;
		const handlers = MapPrototypeGet(hook.handlers, "tool_call");
		if (handlers === undefined) continue;
		ArrayPrototypePush(ran, hook.path);
		for (let i = 0; i < handlers.length; i++) {
			try {
				current ??= ObjectFreeze({ ...event, input: frozenCopy(event.input) });
				let result: unknown;
				let damaged: string | undefined;
				handlerRunning(1);
				try {
					result = (handlers[i] as AnyHookHandler)(current, ctx);
					// An async handler is looked at once it settled; before the `await`, only what the await reads.
					if (isThenable(result) && !awaitChanged()) result = await timed(result, "tool_call", ms);
					damaged = damageSince(hook.path, epoch);
				} finally {
					handlerRunning(-1);
				}
				if (damaged !== undefined) {
					// Not awaited any more: its later failure is not an uncaught error of ours.
					if (result instanceof SafePromise) PromisePrototypeThen(result, undefined, () => undefined);
					return { error: new ErrorCtor(damaged), hookPath: hook.path };
				}
				if (!result) continue;
				if (!isHookResult("tool_call", result)) throw invalidResultError(hook.path, "tool_call", result);
				const decided = result as ToolCallEventResult;
				if (decided.block) return { result: decided, hookPath: hook.path };
				last = decided;
				decidedBy = hook.path;
				// The first ask stands whatever allows come after it; only a later block outranks it.
				if (decided.ask && asked === undefined) asked = { reason: decided.reason, hookPath: hook.path };
				if (decided.input !== undefined) {
					replaced = decided.input;
					current = ObjectFreeze({ ...current, input: frozenCopy(replaced) });
				}
			} catch (error) {
				// A handler that failed may have changed built-ins first: the reason names that too.
				const damaged = damageSince(hook.path, epoch);
				return { error: damaged === undefined ? error : new ErrorCtor(damaged), hookPath: hook.path };
			}
		}
	}
	if (asked !== undefined) {
		const ask: ToolCallEventResult = { ask: true };
		if (asked.reason !== undefined) ask.reason = asked.reason;
		if (replaced !== undefined) ask.input = SafeStructuredClone(replaced);
		return { result: ask, hookPath: asked.hookPath };
	}
	if (replaced === undefined) return { result: last, hookPath: decidedBy };
	return { result: { ...last, input: SafeStructuredClone(replaced) }, hookPath: decidedBy };
}

/**
 * `emit` of a `tool_call` (docs/contract.md#the-runner): {@link dispatchToolCall}'s decision, with `emit`'s error rule
 * read fail closed. `emit` never rejects, so a handler that throws, times out or returns an invalid
 * result is reported to `onError`, its result ignored, and the call resolved as blocked with the
 * error as the reason, exactly where `emitToolCall` would throw (a typo in a guard never allows).
 */
export async function dispatchToolCallReported(
	target: DispatchTarget,
	hooks: readonly LoadedHook[],
	event: AnyEvent,
	ctx: HookContext,
	timeoutOf: TimeoutOf | undefined,
): Promise<ToolCallEventResult | undefined> {
	const outcome = await dispatchToolCall(hooks, event, ctx, timeoutOf);
	if (!("error" in outcome)) return outcome.result;
	const error = toSafeError(outcome.error, "Hook failed, blocking execution: ");
	target.emitError({ hookPath: outcome.hookPath, event: "tool_call", error: errorMessage(error), stack: errorStack(error) });
	return { block: true, reason: errorMessage(error) || "Tool execution was blocked by a hook" };
}

/** `emitContext` on a copy of the messages: each handler sees the previous one's; errors and bad results are reported. */
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
				if (!result) continue;
				if (!isHookResult("context", result)) throw invalidResultError((hooks[h] as LoadedHook).path, "context", result);
				const next = (result as { messages?: AgentMessage[] }).messages;
				if (next) current = next;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, "context", error);
			}
		}
	}
	return current;
}

/**
 * `emitBeforeAgentStart`: every handler runs on a fresh copy of the event (one handler's change to
 * `event.prompt` is not seen by the next, as upstream), the first result carrying `message` is kept.
 */
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
				const fresh = { ...event };
				let result = ms ? invoke(handlers[i] as AnyHookHandler, fresh, ctx, ms) : (handlers[i] as AnyHookHandler)(fresh, ctx);
				if (isThenable(result)) result = await result;
				if (!result) continue;
				if (!isHookResult("before_agent_start", result))
					throw invalidResultError((hooks[h] as LoadedHook).path, "before_agent_start", result);
				if (!kept && (result as BeforeAgentStartEventResult).message) kept = result as BeforeAgentStartEventResult;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, "before_agent_start", error);
			}
		}
	}
	return kept;
}
