import { XcshError } from "../errors.ts";
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
import { type Combine, eventRule } from "./event-rules.ts";
import type { HookEventType } from "./schemas.ts";
import type { AnyHookHandler, HookContext, HookError, LoadedHook, ToolCallEventResult } from "./types.ts";

/*
 * The dispatch loops behind HookRunner's `emit*` methods, one per combine rule of the event table
 * (`events.ts`; the rule is read from `event-rules.ts`, never from the event's name). They are plain module
 * functions taking what they need as arguments, with indexed loops, so the async frame an emit
 * suspends and resumes on every awaited handler stays small: on the hot path this keeps `emit`
 * within a few percent of a hand-written `Map` + `await` loop. Handlers that do not return a
 * promise are never awaited. Every truthy result of an event that takes one is checked with the
 * generated checks (no TypeBox on this path); TypeBox is loaded only to explain a bad result.
 */

/** The event shape every loop passes through. */
export type AnyEvent = { readonly type: string; readonly [key: string]: unknown };

/** What a loop needs from its runner: where handler errors go. */
export interface DispatchTarget {
	emitError(error: HookError): void;
}

/** The combine rule of `type` (`none` for a name that is no event: its results are ignored). */
export function combineOf(type: string): Combine {
	return eventRule(type)?.combine ?? NONE;
}

const NONE: Combine = { rule: "none" };
const NO_FIELDS: readonly string[] = [];

/** Calls a handler; with `ms > 0`, an async result races a timeout that rejects. */
export function invoke(handler: AnyHookHandler, event: AnyEvent, ctx: HookContext, ms: number): unknown {
	return timed(handler(event, ctx), event.type, ms);
}

/** A handler's result; with `ms > 0`, an async one races a timeout that rejects. */
function timed(result: unknown, type: string, ms: number): unknown {
	if (!ms || !isThenable(result)) return result;
	return withTimeout(result as Promise<unknown>, ms, (): never => {
		throw new ErrorCtor(`${type} handler timed out after ${ms} ms`);
	});
}

export function report(target: DispatchTarget, hook: LoadedHook, event: string, error: unknown): void {
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
	return new XcshError("INVALID_RESULT", `Hook ${hookPath} returned an invalid ${type} result: ${why}`);
}

/** The timeout of one event's handlers in ms (`0`: none). */
export type TimeoutOf = (type: string) => number;

/**
 * `emit` of the rules `none`, `last`, `cancel`, `answer` and `chain` resolving what was replaced: errors
 * are reported and dispatch continues. `last` keeps the last truthy result; `cancel` too, and returns at
 * once on a result with its field set (`session_before_*`: `cancel: true`; `subagent_start`:
 * `block: true`); `answer` too, and returns at once on its stopping answer (`permission_request`:
 * the first `decision: "deny"`); a `replaced` chain (`tool_result`): each handler sees the chained fields
 * (`content`/`details`) as replaced before it, and the result is everything the handlers replaced (so
 * a later handler cannot drop an earlier redaction). A result that fails its schema is reported and
 * ignored. Rule `none` resolves `undefined`.
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
	let stopOn: string | undefined;
	let stopValue: unknown;
	let chained: readonly string[] | undefined;
	let kept: readonly string[] = NO_FIELDS;
	let ms = 0;
	let last: unknown;
	let current = event;
	for (let h = 0; h < hooks.length; h++) {
		const handlers = (hooks[h] as LoadedHook).handlers.get(type);
		if (handlers === undefined) continue;
		if (keep === undefined) {
			const combine = combineOf(type);
			keep = combine.rule !== "none";
			if (combine.rule === "cancel") stopOn = combine.field;
			if (combine.rule === "answer") {
				stopOn = combine.field;
				stopValue = combine.stopsOn;
			}
			if (combine.rule === "chain") {
				chained = combine.fields;
				kept = combine.keeps ?? NO_FIELDS;
			}
			ms = timeoutOf ? timeoutOf(type) : 0;
		}
		for (let i = 0; i < handlers.length; i++) {
			try {
				let result = ms ? invoke(handlers[i] as AnyHookHandler, current, ctx, ms) : (handlers[i] as AnyHookHandler)(current, ctx);
				if (isThenable(result)) result = await result;
				if (!keep || !result) continue;
				if (!isHookResult(type as HookEventType, result)) throw invalidResultError((hooks[h] as LoadedHook).path, type, result);
				if (chained) {
					const replaced = result as Record<string, unknown>;
					last = mergeReplacements(last as Record<string, unknown> | undefined, replaced, chained, kept);
					const next: Record<string, unknown> = { ...current };
					for (let f = 0; f < chained.length; f++) {
						const field = chained[f] as string;
						next[field] = replaced[field] !== undefined ? replaced[field] : current[field];
					}
					current = next as AnyEvent;
					continue;
				}
				last = result;
				if (stopOn === undefined) continue;
				const answered = (result as Record<string, unknown>)[stopOn];
				if (stopValue === undefined ? answered : answered === stopValue) return result;
			} catch (error) {
				report(target, hooks[h] as LoadedHook, type, error);
			}
		}
	}
	return last;
}

/**
 * One rule for a chained field (`tool_result`'s `content`, `details`, and the kept `isError`), in the
 * chain and in the result alike: `undefined` (absent, or written `details: undefined`) is "not
 * replaced"; any other value, `null` included, replaces. So a later handler returning
 * `{content, details: undefined}` never drops an earlier `details`, and `details: null` clears them
 * for the next handler and for the caller.
 */
function mergeReplacements(
	earlier: Record<string, unknown> | undefined,
	later: Record<string, unknown>,
	fields: readonly string[],
	kept: readonly string[],
): Record<string, unknown> {
	const merged: Record<string, unknown> = { ...earlier };
	for (let f = 0; f < fields.length; f++)
		if (later[fields[f] as string] !== undefined) merged[fields[f] as string] = later[fields[f] as string];
	for (let f = 0; f < kept.length; f++) if (later[kept[f] as string] !== undefined) merged[kept[f] as string] = later[kept[f] as string];
	return merged;
}

/** What {@link dispatchToolCall} decided, and which hook decided it. */
export type ToolCallOutcome =
	| { result: ToolCallEventResult | undefined; hookPath?: string | undefined }
	| { error: unknown; hookPath: string };

/**
 * The `block` rule (`emitToolCall`, and any guard event): the first `{block: true}` (the rule's first
 * verdict) returns at once; a result with a later verdict outranks one with none, the first of them
 * standing (`ask`: the first ask is the one reported); otherwise the last truthy result wins, carrying the final `input` (the rule's chained field) when a handler replaced it
 * (later handlers see it). Each handler gets a frozen event with a frozen copy of the input. A handler
 * that throws, times out or returns an invalid result ends dispatch with that error (the caller blocks).
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
	const type = event.type;
	const epoch = damageCount();
	const before = checkIntrinsicsBefore(() => guardingHooks(hooks, type));
	if (before !== undefined) return { error: new ErrorCtor(before), hookPath: firstGuard(hooks, type) };
	const ran: string[] = [];
	const outcome = await toolCallLoop(hooks, event, ctx, timeoutOf, epoch, ran);
	// Once per call, everything watched: what the quick check after each handler does not compare.
	const after = checkIntrinsicsAfter(() => (ran.length === 1 ? `hook ${ran[0]}` : `a hook (one of ${ArrayPrototypeJoin(ran, ", ")})`));
	// A change found now outranks what was decided after it, a block included: its reason could be forged too.
	if (after === undefined) return outcome;
	return {
		error: new ErrorCtor(after),
		hookPath: ran.length === 1 ? (ran[0] as string) : "error" in outcome ? outcome.hookPath : firstGuard(hooks, type),
	};
}

/** The paths of the hooks that handle the guard event `type`, for a reason that cannot name one. */
function guardingHooks(hooks: readonly LoadedHook[], type: string): string {
	const paths: string[] = [];
	for (let h = 0; h < hooks.length; h++) {
		const hook = hooks[h] as LoadedHook;
		if (MapPrototypeGet(hook.handlers, type) !== undefined) ArrayPrototypePush(paths, hook.path);
	}
	return ArrayPrototypeJoin(paths, ", ");
}

const firstGuard = (hooks: readonly LoadedHook[], type: string) => {
	for (let h = 0; h < hooks.length; h++)
		if (MapPrototypeGet((hooks[h] as LoadedHook).handlers, type) !== undefined) return (hooks[h] as LoadedHook).path;
	return "(runner)";
};

/** The `block` rule of a guard event: its verdicts, strongest first, and the field handlers chain. */
function verdictsOf(type: string): { verdicts: readonly string[]; chained: string } {
	const combine = combineOf(type);
	return combine.rule === "block" ? { verdicts: combine.verdicts, chained: combine.chain } : BLOCK_INPUT;
}

/** What a `tool_call` has always been decided by, for an event the table gives no `block` rule. */
const BLOCK_INPUT = ObjectFreeze({ verdicts: ObjectFreeze(["block"]), chained: "input" });

/** The index of the strongest verdict a result carries; `verdicts.length` for none (allow). */
function rankOf(result: Record<string, unknown>, verdicts: readonly string[]): number {
	for (let v = 0; v < verdicts.length; v++) if (result[verdicts[v] as string]) return v;
	return verdicts.length;
}

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
	const type = event.type;
	const { verdicts, chained } = verdictsOf(type);
	const ms = timeoutOf ? timeoutOf(type) : 0;
	let last: ToolCallEventResult | undefined;
	let lastRank = verdicts.length;
	let decidedBy: string | undefined;
	let replaced: Record<string, unknown> | undefined;
	let current: AnyEvent | undefined;
	for (let h = 0; h < hooks.length; h++) {
		const hook = hooks[h] as LoadedHook;
		const handlers = MapPrototypeGet(hook.handlers, type);
		if (handlers === undefined) continue;
		ArrayPrototypePush(ran, hook.path);
		for (let i = 0; i < handlers.length; i++) {
			try {
				current ??= ObjectFreeze({ ...event, [chained]: frozenCopy(event[chained]) });
				let result: unknown;
				let damaged: string | undefined;
				handlerRunning(1);
				try {
					result = (handlers[i] as AnyHookHandler)(current, ctx);
					// An async handler is looked at once it settled; before the `await`, only what the await reads.
					if (isThenable(result) && !awaitChanged()) result = await timed(result, type, ms);
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
				if (!isHookResult(type as HookEventType, result)) throw invalidResultError(hook.path, type, result);
				const decided = result as Record<string, unknown>;
				const rank = rankOf(decided, verdicts);
				if (rank === 0) return { result: decided as ToolCallEventResult, hookPath: hook.path };
				// A verdict stands from the first handler that gave it (the first ask is the one reported); among allows the last wins.
				if (rank < lastRank || (rank === lastRank && rank === verdicts.length)) {
					last = decided as ToolCallEventResult;
					lastRank = rank;
					decidedBy = hook.path;
				}
				if (decided[chained] !== undefined) {
					replaced = decided[chained] as Record<string, unknown>;
					current = ObjectFreeze({ ...current, [chained]: frozenCopy(replaced) });
				}
			} catch (error) {
				// A handler that failed may have changed built-ins first: the reason names that too.
				const damaged = damageSince(hook.path, epoch);
				return { error: damaged === undefined ? error : new ErrorCtor(damaged), hookPath: hook.path };
			}
		}
	}
	if (replaced === undefined) return { result: last, hookPath: decidedBy };
	return { result: { ...last, [chained]: SafeStructuredClone(replaced) }, hookPath: decidedBy };
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
	target.emitError({ hookPath: outcome.hookPath, event: event.type, error: errorMessage(error), stack: errorStack(error) });
	return { [verdictsOf(event.type).verdicts[0] ?? "block"]: true, reason: errorMessage(error) || "Tool execution was blocked by a hook" };
}
