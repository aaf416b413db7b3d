import { gateToolCall } from "../hooks/tool-wrapper.ts";
import { builtinToolParameters } from "../tools/parameters.ts";
import type { HookEvent, ToolCallEvent } from "../hooks/types.ts";
import { loadErrorReason } from "../decisions/decide.ts";
import { watchStrayErrors } from "../process/exit-guard.ts";
import { checkIntrinsicsAfter } from "../intrinsic-damage.ts";
import { type Combine, eventRule } from "../hooks/event-rules.ts";
import type { Host } from "./host.ts";

/*
 * One event through the runner, by its entry in the event table (`hooks/events.ts`): the CLI's `emit`,
 * `serve` and the bridges share it, so all read a guard event (`tool_call`) fail-closed and treat a
 * cancelled `session_before_*` alike.
 */

/** What {@link dispatch} resolves. */
export interface Dispatched {
	/** The runner's result (for `tool_call`: `{block, reason}` when blocked, else the result with the final `input`). */
	result: unknown;
	/** Why a tool call was blocked or a `session_before_*` cancelled (a `cancel` rule's field set; the CLI then exits 2). */
	stopped?: string | undefined;
	/** A `tool_call` the hooks ask about (`{ask: true}`, nothing blocked): the reason to show the person. */
	asked?: string | undefined;
	/** The hook whose result or failure decided a `tool_call`, when known. */
	hookPath?: string | undefined;
}

/**
 * Dispatches an event by its table entry. A guard event (`tool_call`) is blocked when a hook failed to
 * load (unless `allowLoadErrors`), when the gate blocks, and when a hook raised an uncaught error while
 * it was decided.
 */
export async function dispatch(host: Host, event: HookEvent, allowLoadErrors: boolean): Promise<Dispatched> {
	const rule = eventRule(event.type);
	if (rule?.guard && rule.combine.rule === "answer") return guardAnswer(host, event, rule.combine, allowLoadErrors);
	if (rule?.guard) return guard(host, event as ToolCallEvent, allowLoadErrors);
	const { runner } = host;
	const combine = rule?.combine;
	let result: unknown = await runner.emit(event);
	// A final chain (`context`) resolves the event's own values when nobody handles it.
	if (result === undefined && combine?.rule === "chain" && combine.resolves === "final")
		result = Object.fromEntries(combine.fields.map((field) => [field, (event as Record<string, unknown>)[field]]));
	const damaged = reportDamage(host, event.type);
	if (combine?.rule !== "cancel") return { result, stopped: undefined };
	if (damaged !== undefined && combine.failClosed) return { result: { [combine.field]: true, reason: damaged }, stopped: damaged };
	const r = result as Record<string, unknown> | undefined;
	return { result, stopped: r?.[combine.field] ? (r.reason as string | undefined) || combine.stopped : undefined };
}

/** A guard event: denied on a load error, by the gate, or by an uncaught error of a hook while it was decided. */
async function guard(host: Host, event: ToolCallEvent, allowLoadErrors: boolean): Promise<Dispatched> {
	const { runner } = host;
	if (host.loadErrors.length > 0 && !allowLoadErrors) {
		const reason = loadErrorReason(host.loadErrors);
		return { result: { block: true, reason }, stopped: reason, hookPath: host.loadErrors[0]?.path };
	}
	const strayReason = watchStrayErrors();
	// Whoever runs the call (an agent behind serve or a bridge) gets an input a built-in tool accepts, or a block.
	const gate = await gateToolCall(runner, event, () => builtinToolParameters(event.toolName));
	// An ask may still end as a run (the person says yes): it is checked like an allow.
	const mayRun = !gate.block || gate.ask === true;
	const stray = mayRun ? await strayReason() : undefined;
	if (stray !== undefined) return { result: { block: true, reason: stray }, stopped: stray };
	// Work a handler left (a timer) may have changed the built-ins the answer is written with since the runner's last look.
	const late = mayRun ? checkIntrinsicsAfter(() => `a hook (${handlersOf(host, event.type)}) after its handler returned`, true) : undefined;
	if (late !== undefined) return { result: { block: true, reason: late }, stopped: late };
	if (gate.ask) {
		const result = gate.input === undefined ? { ask: true, reason: gate.reason } : { ask: true, reason: gate.reason, input: gate.input };
		return { result, asked: gate.reason, hookPath: gate.hookPath };
	}
	if (!gate.block) return { result: gate.result, hookPath: gate.hookPath };
	return { result: { block: true, reason: gate.reason }, stopped: gate.reason, hookPath: gate.hookPath };
}

/**
 * A guard event answered under an `answer` rule (`permission_request`): it fails closed as `tool_call`
 * does. A hook that failed to load, threw, timed out or returned an invalid result (or changed built-ins)
 * answers the rule's stopping answer (`{decision: "deny"}`) with a reason naming it; otherwise the
 * first stopping answer wins, else the last one; no result lets the agent ask as usual.
 */
async function guardAnswer(
	host: Host,
	event: HookEvent,
	combine: Extract<Combine, { rule: "answer" }>,
	allowLoadErrors: boolean,
): Promise<Dispatched> {
	const deny = (reason: string, hookPath?: string): Dispatched => ({
		result: { [combine.field]: combine.stopsOn, reason },
		stopped: reason,
		hookPath,
	});
	if (host.loadErrors.length > 0 && !allowLoadErrors) return deny(loadErrorReason(host.loadErrors), host.loadErrors[0]?.path);
	const strayReason = watchStrayErrors();
	const failed: Array<{ hookPath: string; error: string }> = [];
	const off = host.runner.onError((error) => failed.push(error));
	let result: unknown;
	try {
		result = await host.runner.emit(event);
	} finally {
		off();
	}
	// As on `tool_call`: the zero-delay work hooks left runs first; an unawaited rejection, or built-ins
	// changed there (after the handler returned), deny even beside an allow.
	const stray = await strayReason();
	const damaged = reportDamage(host, event.type);
	if (damaged !== undefined) return deny(damaged);
	const first = failed[0];
	if (first) return deny(`hook ${first.hookPath} failed on ${event.type} (fail closed): ${first.error}`, first.hookPath);
	if (stray !== undefined) return deny(stray);
	const answer = result as Record<string, unknown> | undefined;
	if (answer?.[combine.field] === combine.stopsOn) return deny(String(answer.reason || combine.stopped));
	return { result };
}

/** The paths of the hooks that handle `type`. */
function handlersOf(host: Host, type: string): string {
	return host.hooks
		.filter((hook) => (hook.handlers.get(type)?.length ?? 0) > 0)
		.map((hook) => hook.path)
		.join(", ");
}

/**
 * After an event that guards nothing: a change of the built-ins its handlers made is put back and
 * reported as their error (the runner's loops for these events are budgeted per handler in
 * nanoseconds, so the look is taken once here, per event); resolves the reason, if any.
 */
function reportDamage(host: Host, type: string): string | undefined {
	if (!host.runner.hasHandlers(type as HookEvent["type"])) return undefined;
	const paths = () => handlersOf(host, type);
	const reason = checkIntrinsicsAfter(() => `a hook (${paths()}) on ${type}`);
	if (reason !== undefined) host.runner.emitError({ hookPath: paths(), event: type, error: reason });
	return reason;
}
