import type { TSchema } from "@sinclair/typebox";
// Check and Errors alone, not the whole `Value` namespace: the rest would load on every start-up.
import { Errors, type ValueError } from "@sinclair/typebox/errors";
import { Check } from "@sinclair/typebox/value";
import { HOOK_EVENT_TYPES, HookEventSchemas, type HookEventType, HookResultSchemas } from "./schemas.ts";
import type { HookEvent } from "./types.ts";

/** The outcome of validating a value: the typed value, or messages naming each offending field. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** `/input/command` → `input.command`, `/messages/0/role` → `messages[0].role`. */
function fieldName(path: string): string {
	if (!path) return "(root)";
	return path
		.slice(1)
		.split("/")
		.map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
		.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), "");
}

function describe(error: ValueError): string {
	const got = error.value === undefined ? "nothing" : JSON.stringify(error.value);
	return `${fieldName(error.path)}: ${error.message.toLowerCase()} (got ${got && got.length > 60 ? `${got.slice(0, 57)}...` : got})`;
}

/** Checks `value` against `schema`; on failure, one message per offending field (first error per path). */
export function validateValue<T>(schema: TSchema, value: unknown, prefix = ""): ValidationResult<T> {
	if (Check(schema, value)) return { ok: true, value: value as T };
	const seen = new Set<string>();
	const errors: string[] = [];
	for (const error of Errors(schema, value)) {
		// A union failing reports every branch; the most specific path is the useful one.
		if (seen.has(error.path)) continue;
		seen.add(error.path);
		errors.push(prefix + describe(error));
		if (errors.length >= 10) break;
	}
	return { ok: false, errors };
}

/** Whether `type` names a hook event. */
export function isHookEventType(type: unknown): type is HookEventType {
	return typeof type === "string" && Object.hasOwn(HookEventSchemas, type);
}

/**
 * Validates an untrusted value as a hook event. The `type` field picks the schema; errors name
 * the event type and the offending field, e.g. `turn_start.turnIndex: expected integer (got "x")`.
 */
export function validateEvent(value: unknown): ValidationResult<HookEvent> {
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { ok: false, errors: [`event must be a JSON object (got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value})`] };
	const type = (value as { type?: unknown }).type;
	if (!isHookEventType(type))
		return {
			ok: false,
			errors: [
				type === undefined
					? `event.type is missing; expected one of: ${HOOK_EVENT_TYPES.join(", ")}`
					: `unknown event type ${JSON.stringify(type)}; expected one of: ${HOOK_EVENT_TYPES.join(", ")}`,
			],
		};
	return validateValue<HookEvent>(HookEventSchemas[type], value, `${type}.`);
}

/** Validates a handler result for `type` (events without a result schema accept only `undefined`). */
export function validateResult(type: HookEventType, value: unknown): ValidationResult<unknown> {
	const schema = (HookResultSchemas as Record<string, TSchema>)[type];
	if (!schema) return value === undefined ? { ok: true, value } : { ok: false, errors: [`${type} takes no result`] };
	return validateValue(schema, value, `${type} result.`);
}
