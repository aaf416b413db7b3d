import type { TSchema } from "@sinclair/typebox";
import type { ValueError } from "@sinclair/typebox/errors";
import { eventChecks, resultChecks } from "./_checks.generated.ts";
import type { HookEventType } from "./schemas.ts";
import type { HookEvent } from "./types.ts";

/*
 * Validation on the hot path uses the generated checks (`_checks.generated.ts`): plain functions,
 * no TypeBox loaded, no schema built. TypeBox and the schemas are loaded only when a value fails
 * and the errors must name the offending fields.
 */

/** The outcome of validating a value: the typed value, or messages naming each offending field. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

// Relative requires: a bare `@sinclair/typebox` specifier would go through the runtime plugin that
// serves hooks (src/embedded), whose modules load asynchronously and cannot be required.
const typebox = (): typeof import("./_typebox.ts") => require("./_typebox.ts");
const schemas = (): typeof import("./schemas.ts") => require("./schemas.ts");

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
	for (const error of typebox().Errors(schema, value)) {
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
	if (typebox().Check(schema, value)) return { ok: true, value: value as T };
	return { ok: false, errors: explain(schema, value, prefix) };
}

/** Every event type, in the order of the spec. */
export function hookEventTypes(): HookEventType[] {
	return Object.keys(eventChecks) as HookEventType[];
}

/** Whether `type` names a hook event. */
export function isHookEventType(type: unknown): type is HookEventType {
	return typeof type === "string" && Object.hasOwn(eventChecks, type);
}

const describeKind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

/**
 * Validates an untrusted value as a hook event. The `type` field picks the schema; errors name
 * the event type and the offending field, e.g. `turn_start.turnIndex: expected integer (got "x")`.
 */
export function validateEvent(value: unknown): ValidationResult<HookEvent> {
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { ok: false, errors: [`event must be a JSON object (got ${describeKind(value)})`] };
	const type = (value as { type?: unknown }).type;
	if (!isHookEventType(type)) {
		const accepted = `expected one of: ${hookEventTypes().join(", ")}`;
		const what = type === undefined ? "event.type is missing" : `unknown event type ${JSON.stringify(type)}`;
		return { ok: false, errors: [`${what}; ${accepted}`] };
	}
	if ((eventChecks[type] as (v: unknown) => boolean)(value)) return { ok: true, value: value as HookEvent };
	return { ok: false, errors: explain(schemas().HookEventSchemas[type], value, `${type}.`) };
}

/** Validates a handler result for `type` (events without a result schema accept only `undefined`). */
export function validateResult(type: HookEventType, value: unknown): ValidationResult<unknown> {
	const check = resultChecks[type];
	if (!check) return value === undefined ? { ok: true, value } : { ok: false, errors: [`${type} takes no result`] };
	if (check(value)) return { ok: true, value };
	return { ok: false, errors: explain((schemas().HookResultSchemas as Record<string, TSchema>)[type] as TSchema, value, `${type} result.`) };
}
