import { gateToolCall } from "../hooks/tool-wrapper.ts";
import { builtinToolParameters } from "../tools/parameters.ts";
import type { HookEvent, HookLoadError } from "../hooks/types.ts";
import { watchStrayErrors } from "./exit-guard.ts";
import { checkIntrinsicsAfter } from "../intrinsic-damage.ts";
import type { Host } from "./host.ts";

/*
 * One event through the runner method that fits it (docs/contract.md#the-runner, #cli): the CLI's `emit`, `serve` and the
 * bridges share it, so all read `tool_call` fail-closed and treat a cancelled `session_before_*` alike.
 */

/** Why a `tool_call` is blocked when hooks failed to load, naming each one. */
export function loadErrorReason(errors: HookLoadError[]): string {
	return `blocked because a hook failed to load (fail closed; pass --allow-load-errors to run anyway): ${errors
		.map((e) => `${e.path}: ${e.error}`)
		.join("; ")}`;
}

/** What {@link dispatch} resolves. */
export interface Dispatched {
	/** The runner's result (for `tool_call`: `{block, reason}` when blocked, else the result with the final `input`). */
	result: unknown;
	/** Why a tool call was blocked or a `session_before_*` cancelled (the CLI then exits 2). */
	stopped?: string | undefined;
	/** A `tool_call` the hooks ask about (`{ask: true}`, nothing blocked): the reason to show the person. */
	asked?: string | undefined;
	/** The hook whose result or failure decided a `tool_call`, when known. */
	hookPath?: string | undefined;
}

/**
 * Dispatches an event with the runner method that fits it. A `tool_call` is blocked when a hook
 * failed to load (unless `allowLoadErrors`), when the gate blocks, and when a hook raised an
 * uncaught error while it was decided.
 */
export async function dispatch(host: Host, event: HookEvent, allowLoadErrors: boolean): Promise<Dispatched> {
	const { runner } = host;
	switch (event.type) {
		case "tool_call": {
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
			const late = mayRun
				? checkIntrinsicsAfter(() => `a hook (${handlersOf(host, "tool_call")}) after its handler returned`, true)
				: undefined;
			if (late !== undefined) return { result: { block: true, reason: late }, stopped: late };
			if (gate.ask) {
				const result =
					gate.input === undefined ? { ask: true, reason: gate.reason } : { ask: true, reason: gate.reason, input: gate.input };
				return { result, asked: gate.reason, hookPath: gate.hookPath };
			}
			if (!gate.block) return { result: gate.result, hookPath: gate.hookPath };
			return { result: { block: true, reason: gate.reason }, stopped: gate.reason, hookPath: gate.hookPath };
		}
		case "permission_request":
			return dispatchPermission(host, event, allowLoadErrors);
		case "context":
			return checked(host, event.type, { result: { messages: await runner.emitContext(event.messages) } });
		case "before_agent_start":
			return checked(host, event.type, { result: await runner.emitBeforeAgentStart(event.prompt, event.images) });
		default: {
			const result = await runner.emit(event);
			const damaged = reportDamage(host, event.type);
			if (event.type === "subagent_start") {
				const r = result as { block?: boolean; reason?: string } | undefined;
				if (damaged !== undefined) return { result: { block: true, reason: damaged }, stopped: damaged };
				return { result, stopped: r?.block ? r.reason || "starting the subagent was denied by a hook" : undefined };
			}
			const cancelled = event.type.startsWith("session_before_") && (result as { cancel?: boolean } | undefined)?.cancel;
			return { result, stopped: cancelled ? `${event.type} was cancelled by a hook` : undefined };
		}
	}
}

/**
 * `permission_request` answers an approval prompt, so it fails closed as `tool_call` does: a hook that
 * failed to load, threw or returned an invalid result (or changed built-ins) denies, naming it. The first
 * `{decision: "deny"}` wins; no result lets the agent ask as usual.
 */
async function dispatchPermission(host: Host, event: HookEvent, allowLoadErrors: boolean): Promise<Dispatched> {
	const deny = (reason: string, hookPath?: string): Dispatched => ({ result: { decision: "deny", reason }, stopped: reason, hookPath });
	if (host.loadErrors.length > 0 && !allowLoadErrors) return deny(loadErrorReason(host.loadErrors), host.loadErrors[0]?.path);
	const failed: Array<{ hookPath: string; error: string }> = [];
	const off = host.runner.onError((error) => failed.push(error));
	let result: unknown;
	try {
		result = await host.runner.emit(event);
	} finally {
		off();
	}
	const damaged = reportDamage(host, event.type);
	if (damaged !== undefined) return deny(damaged);
	const first = failed[0];
	if (first) return deny(`hook ${first.hookPath} failed on permission_request (fail closed): ${first.error}`, first.hookPath);
	const answer = result as { decision?: string; reason?: string } | undefined;
	if (answer?.decision === "deny") return deny(answer.reason || "denied by a hook");
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

function checked(host: Host, type: string, dispatched: Dispatched): Dispatched {
	reportDamage(host, type);
	return dispatched;
}
