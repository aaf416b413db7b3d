import { basename } from "pathe";
import { isRecord } from "../json.ts";
import { oneLine } from "../one-line.ts";
import type { Decision, DecisionEntry } from "./decision-log.ts";

/*
 * One way to decide a tool call, for every place that answers one: the bridge flow (src/agent-call,
 * which the server's socket and HTTP calls run too), the server's `emit` (src/serve), our runtime
 * inside an agent (src/inprocess) and the CLI's `emit`/`run`. What the runner's outcome means (allow,
 * deny with a reason, rewrite with an input), the reasons that name what decided (the hook, the hooks
 * that failed to load), and the record the decision log keeps of it. The log itself is written by
 * ./write.ts.
 */

/** The reason of a block that gave none. */
const BLOCKED_BY_A_HOOK = "Tool execution was blocked by a hook";
/** The reason of an ask that gave none. */
const ASKED_BY_A_HOOK = "a hook asks for confirmation";

/** A decided tool call, with the hook that decided it when known. */
export type ToolCallDecision =
	| { decision: "deny"; reason: string; hook?: string | undefined }
	| { decision: "rewrite"; input: Record<string, unknown>; hook?: string | undefined }
	/** A hook asks (`{ask: true}`, nothing blocked): the person decides; `input` when a hook also rewrote it. */
	| { decision: "ask"; reason: string; input?: Record<string, unknown> | undefined; hook?: string | undefined }
	| { decision: "allow"; hook?: string | undefined };

/**
 * The decision of a dispatched `tool_call` (src/host/dispatch.ts: the runner's result, why the call
 * was stopped, the deciding hook): a stop or a block denies with its reason, an ask asks with its
 * reason (block beats ask beats allow), a new input rewrites, anything else allows.
 */
export function toolCallDecision(dispatched: {
	result: unknown;
	stopped?: string | undefined;
	asked?: string | undefined;
	hookPath?: string | undefined;
}): ToolCallDecision {
	const result = isRecord(dispatched.result) ? dispatched.result : undefined;
	const hook = dispatched.hookPath;
	if (dispatched.stopped || result?.block === true)
		return { decision: "deny", reason: dispatched.stopped || String(result?.reason || BLOCKED_BY_A_HOOK), hook };
	if (dispatched.asked !== undefined || result?.ask === true) {
		const reason = dispatched.asked || String(result?.reason || ASKED_BY_A_HOOK);
		return { decision: "ask", reason, input: isRecord(result?.input) ? result.input : undefined, hook };
	}
	return isRecord(result?.input) ? { decision: "rewrite", input: result.input, hook } : { decision: "allow", hook };
}

/** The reason a decision carries to the log: a deny's or an ask's. */
const reasonOf = (decided: ToolCallDecision): string | undefined =>
	decided.decision === "deny" || decided.decision === "ask" ? decided.reason : undefined;

/** How a decision reads in the decision log: the verdict, a deny's or an ask's reason, the deciding hook. */
export function loggedDecision(decided: ToolCallDecision): Pick<DecisionEntry, "decision" | "reason" | "hook"> {
	return { decision: decided.decision, reason: reasonOf(decided), hook: decided.hook };
}

/**
 * Why a `tool_call` is blocked when hooks failed to load, naming each one: from a command (`bridge`,
 * `emit`, `run`, the server), with the flag that lets the call run anyway; inside an agent, where no
 * flag can be given, naming xcsh-hooks as the one that blocked.
 */
export function loadErrorReason(errors: ReadonlyArray<{ path: string; error: string }>, where: "command" | "agent" = "command"): string {
	const each = errors.map((e) => `${e.path}: ${e.error}`).join("; ");
	return where === "agent"
		? `xcsh-hooks blocked this call because a hook failed to load (fail closed): ${each}`
		: `blocked because a hook failed to load (fail closed; pass --allow-load-errors to run anyway): ${each}`;
}

/**
 * A deny reason as an agent's user reads it from a bridge: it names the hooks that decided it
 * (`[xcsh-hooks: guard.ts]`, by file name), unless it names one of them already or none is known.
 */
export function namingDecidingHooks(reason: string, paths: readonly string[]): string {
	if (paths.length === 0 || paths.some((path) => reason.includes(basename(path)))) return reason;
	return `${reason} [xcsh-hooks: ${paths.map((path) => basename(path)).join(", ")}]`;
}

/**
 * A reason as our runtime inside an agent gives it: a hook's own block reason passes as the hook gave
 * it; a hook's failure (it threw, timed out, returned an invalid result) names that hook.
 */
export function namingFailedHook(reason: string, hookPath: string | undefined): string {
	return hookPath && !reason.includes(hookPath) ? `xcsh-hooks blocked this call: hook ${hookPath} failed (fail closed): ${reason}` : reason;
}

/** Who asked for a tool call, as the decision log names it (never the tool's input or output). */
export type CallOrigin = Pick<DecisionEntry, "agent" | "session" | "event" | "tool" | "subagent" | "subagentType" | "mcpServer">;

/** A decision as the log keeps it: who asked, the verdict, a deny's reason on one line, the deciding hook, the time taken. */
export interface DecisionRecord extends CallOrigin {
	decision: Decision;
	reason?: string | undefined;
	/** Path of the hook that decided (blocked or rewrote, or the last that answered). */
	hook?: string | undefined;
	durationMs: number;
}

/** The record of one decided tool call; its duration to 0.1 ms. */
export function decisionRecord(origin: CallOrigin, decided: ToolCallDecision, durationMs: number): DecisionRecord {
	return {
		...origin,
		decision: decided.decision,
		reason: reasonOf(decided) === undefined ? undefined : oneLine(reasonOf(decided) as string),
		hook: decided.hook,
		durationMs: Math.round(durationMs * 10) / 10,
	};
}
