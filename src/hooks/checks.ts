import { eventChecks } from "./_event-checks.generated.ts";
import { resultChecks } from "./_result-checks.generated.ts";
import type { HookEventType } from "./schemas.ts";
import type { HookEvent } from "./types.ts";

/*
 * Yes/no answers from the generated checks (`_event-checks.generated.ts`, `_result-checks.generated.ts`): plain functions, no TypeBox
 * loaded and no schema built, for the start-up path of the CLI. `validate.ts` explains failures.
 */

/** Every event type, in the order of the spec. */
export function hookEventTypes(): HookEventType[] {
	return Object.keys(eventChecks) as HookEventType[];
}

/** Whether `type` names a hook event. */
export function isHookEventType(type: unknown): type is HookEventType {
	return typeof type === "string" && Object.hasOwn(eventChecks, type);
}

/** Whether `value` is a valid hook event (its `type` picks the schema). */
export function isHookEvent(value: unknown): value is HookEvent {
	const type = (value as { type?: unknown } | null)?.type;
	return isHookEventType(type) && (eventChecks[type] as (v: unknown) => boolean)(value);
}

/** Whether `value` is a valid result for `type`; events without a result schema accept only `undefined`. */
export function isHookResult(type: HookEventType, value: unknown): boolean {
	const check = resultChecks[type];
	return check ? check(value) : value === undefined;
}
