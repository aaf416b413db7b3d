import type { TSchema } from "@sinclair/typebox";
import { Errors, type ValueError } from "@sinclair/typebox/errors";
import { Check } from "@sinclair/typebox/value";
import { hookEventTypes, isHookEvent, isHookEventType, isHookResult } from "./checks.ts";
import { addedSchemas } from "./event-rules.ts";
import { HookEventSchemas, type HookEventType, HookResultSchemas } from "./schemas.ts";
import type { HookEvent } from "./types.ts";

export { hookEventTypes, isHookEventType } from "./checks.ts";

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

/** One message per offending field of a value that failed `schema` (first error per path, at most 10). */
function explain(schema: TSchema, value: unknown, prefix: string): string[] {
	const seen = new Set<string>();
	const errors: string[] = [];
	for (const error of Errors(schema, value)) {
		// A union failing reports every branch; the most specific path is the useful one.
		if (seen.has(error.path)) continue;
		seen.add(error.path);
		errors.push(prefix + describe(error));
		if (errors.length >= 10) break;
	}
	return errors;
}

/** Checks `value` against any TypeBox `schema`; on failure, one message per offending field. */
export function validateValue<T>(schema: TSchema, value: unknown, prefix = ""): ValidationResult<T> {
	if (Check(schema, value)) return { ok: true, value: value as T };
	return { ok: false, errors: explain(schema, value, prefix) };
}

const describeKind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

/**
 * Validates an untrusted value as a hook event. The `type` field picks the schema; errors name
 * the event type and the offending field, e.g. `turn_start.turnIndex: expected integer (got "x")`.
 */
export function validateEvent(value: unknown): ValidationResult<HookEvent> {
	if (isHookEvent(value)) return { ok: true, value };
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { ok: false, errors: [`event must be a JSON object (got ${describeKind(value)})`] };
	const type = (value as { type?: unknown }).type;
	if (!isHookEventType(type)) {
		const accepted = `expected one of: ${hookEventTypes().join(", ")}`;
		const what = type === undefined ? "event.type is missing" : `unknown event type ${JSON.stringify(type)}`;
		return { ok: false, errors: [`${what}; ${accepted}`] };
	}
	return { ok: false, errors: explain(HookEventSchemas[type] ?? (addedSchemas(type)?.payload as TSchema), value, `${type}.`) };
}

/** Validates a handler result for `type` (events without a result schema accept only `undefined`). */
export function validateResult(type: HookEventType, value: unknown): ValidationResult<unknown> {
	if (isHookResult(type, value)) return { ok: true, value };
	const schema = (HookResultSchemas as Record<string, TSchema>)[type] ?? (addedSchemas(type)?.result as TSchema | undefined);
	if (!schema) return { ok: false, errors: [`${type} takes no result`] };
	return { ok: false, errors: explain(schema, value, `${type} result.`) };
}
