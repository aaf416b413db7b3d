import { eventCheck, eventTypes, resultCheck } from "./event-rules.ts";
import type { HookEventType } from "./schemas.ts";
import type { HookEvent } from "./types.ts";

/*
 * Yes/no answers from the generated checks (`_event-checks.generated.ts`, `_result-checks.generated.ts`),
 * looked up through the event table's run-time view (`event-rules.ts`): plain functions, no TypeBox
 * loaded and no schema built, for the start-up path of the CLI. `validate.ts` explains failures.
 */

/** Every event type, in the order of the spec. */
export function hookEventTypes(): HookEventType[] {
	return eventTypes() as HookEventType[];
}

/** Whether `type` names a hook event. */
export function isHookEventType(type: unknown): type is HookEventType {
	return typeof type === "string" && eventCheck(type) !== undefined;
}

/** Whether `value` is a valid hook event (its `type` picks the schema). */
export function isHookEvent(value: unknown): value is HookEvent {
	const type = (value as { type?: unknown } | null)?.type;
	const check = typeof type === "string" ? eventCheck(type) : undefined;
	return check?.(value) === true;
}

/** Whether `value` is a valid result for `type`; events without a result schema accept only `undefined`. */
export function isHookResult(type: HookEventType, value: unknown): boolean {
	const check = resultCheck(type);
	return check ? check(value) : value === undefined;
}
