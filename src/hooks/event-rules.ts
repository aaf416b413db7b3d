import { XcshError } from "../errors.ts";
import { eventChecks } from "./_event-checks.generated.ts";
import { eventRules as generatedRules } from "./_event-rules.generated.ts";
import { resultChecks } from "./_result-checks.generated.ts";
import { deepFreeze } from "../freeze.ts";
import { MapPrototypeGet, ObjectHasOwn, ObjectKeys } from "../primordials.ts";

/*
 * What an event means, as data: how its handlers' results combine, what it yields to an agent, whether
 * it guards a call. The table (`events.ts`) writes one entry per event with these rules beside its
 * schemas; `scripts/gen-checks.ts` writes the rules of every entry to `_event-rules.generated.ts`, so the
 * runner, dispatch, the bridges and `serve` read them here without loading TypeBox or building a schema.
 */

/**
 * How the results of an event's handlers combine, one named rule each. Handlers run in hook order,
 * then registration order; a result is checked against the event's result schema before it counts.
 */
export type Combine =
	/** Results are ignored (the handler is told; `emit` resolves `undefined`). */
	| { readonly rule: "none" }
	/** The last truthy result wins. */
	| { readonly rule: "last" }
	/**
	 * The last truthy result wins, and one with `field: true` ends dispatch at once; the host then stops
	 * what the event announced, with the result's `reason` or `stopped`. With `failClosed`, a hook that
	 * damaged built-ins on it stops it too.
	 */
	| { readonly rule: "cancel"; readonly field: string; readonly stopped: string; readonly failClosed?: boolean }
	/** Every handler runs on its own copy of the event; the first result carrying `field` wins. */
	| { readonly rule: "first"; readonly field: string }
	/**
	 * Each handler sees `fields` as the handlers before it replaced them (`undefined` is "not replaced").
	 * `resolves: "final"`: `{[field]: final}` once any handler is registered (the event's own value when
	 * none is); `"replaced"`: only what handlers replaced, `keeps` included.
	 */
	| {
			readonly rule: "chain";
			readonly fields: readonly string[];
			readonly resolves: "final" | "replaced";
			readonly keeps?: readonly string[];
	  }
	/**
	 * A guard's decision. `verdicts`, strongest first: a result with the first one set ends dispatch at
	 * once; a result with a later one outranks one with none ("block beats ask beats allow") and the
	 * first such result stands; among results with none the last truthy one wins. `chain`: the field a handler may replace for the ones after it
	 * (the tool's `input`). A handler that throws, times out or returns an invalid result decides with
	 * its error: the call is denied (fail closed).
	 */
	| { readonly rule: "block"; readonly verdicts: readonly string[]; readonly chain: string }
	/**
	 * An answer of `field` (`decision`): the first result whose `field` is `stopsOn` (`"deny"`) ends
	 * dispatch at once; otherwise the last truthy result wins ("first deny wins, else last allow"). On a
	 * guard event a hook that fails answers `{[field]: stopsOn, reason}` (fail closed).
	 */
	| { readonly rule: "answer"; readonly field: string; readonly stopsOn: string; readonly stopped: string };

/** The name of a combine rule. */
export type CombineRuleName = Combine["rule"];

/**
 * What the hooks' result on an event becomes for an agent: `deny` (a guard: deny, rewrite or none),
 * `replace` (the tool's output), `context` (text added to the model's context), `messages` (the
 * messages sent to the model), `deny-start` (the subagent is not started), `cancel` (the compaction),
 * `approve` (an approval prompt answered: approve, deny with a reason, or let the agent ask).
 */
export type OutcomeKind = "deny" | "replace" | "context" | "messages" | "deny-start" | "cancel" | "approve";

/**
 * How a bridge builds the event from an agent's payload: `tool-call` / `tool-result` from the call the
 * payload describes, `permission` from the call an approval prompt is about (with the agent's
 * suggestions), `prompt` from the user's prompt, `compaction` from what is known of it, `messages`
 * from the messages (none when the agent sends none), `subagent` from the subagent, `bare` from nothing.
 * An agent's event mapping may build the event's fields itself instead (its `event` function).
 */
export type BridgeKind = "tool-call" | "tool-result" | "permission" | "prompt" | "compaction" | "messages" | "subagent" | "bare";

/** Everything an event means beyond its schemas: what the table says and the hot path reads. */
export interface EventRule {
	/** How handler results combine. */
	readonly combine: Combine;
	/** What the result becomes for an agent; absent: "no opinion". */
	readonly outcome?: OutcomeKind;
	/** The event guards a call: anything that goes wrong on it denies the call (fail closed). */
	readonly guard?: boolean;
	/** The event carries a `toolCallId` that a host generates when the caller left it out. */
	readonly callId?: boolean;
	/** How a bridge builds it from an agent's payload; absent: only an agent mapping with `event` can. */
	readonly bridge?: BridgeKind;
	/** An agent's own command hooks (its config) can run on it. */
	readonly commandHooks?: boolean;
}

/** Rule constructors, so the table reads as a sentence per event. */
export const none: Combine = { rule: "none" };
export const last: Combine = { rule: "last" };
export const cancel = (field: string, stopped: string, failClosed?: boolean): Combine =>
	failClosed ? { rule: "cancel", field, stopped, failClosed } : { rule: "cancel", field, stopped };
export const first = (field: string): Combine => ({ rule: "first", field });
export const chain = (fields: readonly string[], resolves: "final" | "replaced", keeps?: readonly string[]): Combine =>
	keeps ? { rule: "chain", fields, resolves, keeps } : { rule: "chain", fields, resolves };
export const block = (verdicts: readonly string[], chained: string): Combine => ({ rule: "block", verdicts, chain: chained });
export const answer = (field: string, stopsOn: string, stopped: string): Combine => ({ rule: "answer", field, stopsOn, stopped });

/**
 * The result a guard event resolves when it is denied for something that went wrong (a hook that failed
 * to load, threw, timed out, changed built-ins): `{block: true, reason}` under a `block` rule (its first
 * verdict), `{decision: "deny", reason}` under an `answer` rule.
 */
export function deniedResult(type: string, reason: string): Record<string, unknown> {
	const combine = eventRule(type)?.combine;
	if (combine?.rule === "answer") return { [combine.field]: combine.stopsOn, reason };
	return { [combine?.rule === "block" ? (combine.verdicts[0] ?? "block") : "block"]: true, reason };
}

/** An event added at run time by a test: its rule and its compiled checks. */
export interface AddedEvent {
	rule: EventRule;
	check: (value: unknown) => boolean;
	checkResult: ((value: unknown) => boolean) | undefined;
	/** Its payload and result schemas, for explaining a value that fails. */
	schemas: { payload: unknown; result: unknown };
}

const added = new Map<string, AddedEvent>();
const eventRules: Record<string, EventRule> = generatedRules as Record<string, EventRule>;
// Hooks share this realm: what decides a guard event is not theirs to change.
deepFreeze(eventRules);

/** The rule of event `type`, or `undefined` for a name that is no event. */
export function eventRule(type: string): EventRule | undefined {
	if (ObjectHasOwn(eventRules, type)) return eventRules[type];
	return added.size === 0 ? undefined : MapPrototypeGet(added, type)?.rule;
}

/** Every event type, in the table's order (events added by a test last). */
export function eventTypes(): string[] {
	return added.size === 0 ? ObjectKeys(eventRules) : [...ObjectKeys(eventRules), ...added.keys()];
}

/** The check of an event's payload. */
export function eventCheck(type: string): ((value: unknown) => boolean) | undefined {
	if (ObjectHasOwn(eventChecks, type)) return eventChecks[type];
	return added.size === 0 ? undefined : MapPrototypeGet(added, type)?.check;
}

/** The check of an event's results; `undefined` when the event takes none. */
export function resultCheck(type: string): ((value: unknown) => boolean) | undefined {
	if (ObjectHasOwn(resultChecks, type)) return resultChecks[type];
	return added.size === 0 ? undefined : MapPrototypeGet(added, type)?.checkResult;
}

/** The schemas of an event a test added (the table's own are `HookEventSchemas` / `HookResultSchemas`). */
export function addedSchemas(type: string): { payload: unknown; result: unknown } | undefined {
	return added.size === 0 ? undefined : MapPrototypeGet(added, type)?.schemas;
}

/**
 * For tests only (through `addEntryForTesting` of `events.ts`): adds an event as if it were in the
 * table, so a test can prove that adding an event needs nothing but its entry. Returns the function
 * removing it.
 */
export function addEventForTesting(type: string, event: AddedEvent): () => void {
	if (eventRule(type)) throw new XcshError("ALREADY_REGISTERED", `addEventForTesting: "${type}" is already an event`);
	added.set(type, { ...event, rule: deepFreeze(event.rule) });
	return () => void added.delete(type);
}
