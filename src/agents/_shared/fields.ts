/*
 * The shape of an agent's hook payload, written once as plain data: the bridge checks payloads with
 * it on every call without loading TypeBox (≈15 ms of start-up, docs/contract.md#performance-budgets), and `schema.ts` turns the
 * same shape into the TypeBox schema that documents and exports it. Fields not listed are tolerated.
 */

/** A JSON type a payload field may have. */
export type FieldType = "string" | "number" | "boolean" | "object" | "array" | "null";

/** One payload field: its accepted types, whether it may be missing, and (objects) its own fields. */
export interface Field {
	types: FieldType[];
	optional: boolean;
	/** For an object field: the fields it must hold (others tolerated). */
	fields?: Shape | undefined;
}

/** The fields of a payload (or of an object inside one). */
export type Shape = Record<string, Field>;

const field = (types: FieldType[], fields?: Shape): Field => ({ types, optional: false, fields });

/** A string field. */
export const str: Field = field(["string"]);
/** A number field. */
export const num: Field = field(["number"]);
/** A boolean field. */
export const bool: Field = field(["boolean"]);
/** An array field. */
export const arr: Field = field(["array"]);
/** Any JSON value except a missing one. */
export const any: Field = field(["string", "number", "boolean", "object", "array", "null"]);
/** An object field, optionally with required fields of its own. */
export const obj = (fields?: Shape): Field => field(["object"], fields);
/** A field that may be missing. */
export const opt = (f: Field): Field => ({ ...f, optional: true });
/** A field that may also be `null`. */
export const nullable = (f: Field): Field => ({ ...f, types: [...f.types, "null"] });
/** A field of one of several types. */
export const oneOf = (...fs: Field[]): Field => field(fs.flatMap((f) => f.types));

function typeOf(value: unknown): FieldType {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	const t = typeof value;
	return t === "string" || t === "number" || t === "boolean" ? t : "object";
}

const article = (t: FieldType) => (t === "object" || t === "array" ? `an ${t}` : t === "null" ? "null" : `a ${t}`);

/** A short rendering of a bad value for an error message. */
function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Checks `value` against `shape`; one message per offending field, each naming it
 * (`tool_input: missing, expected an object`), `[]` when the value fits.
 */
export function checkShape(shape: Shape, value: unknown, prefix = ""): string[] {
	if (typeOf(value) !== "object") return [`${prefix || "payload"}: expected a JSON object, got ${shown(value)}`];
	const record = value as Record<string, unknown>;
	const errors: string[] = [];
	for (const [name, f] of Object.entries(shape)) {
		const path = `${prefix}${name}`;
		const v = record[name];
		const expected = f.types.map(article).join(" or ");
		if (v === undefined) {
			if (!f.optional) errors.push(`${path}: missing, expected ${expected}`);
			continue;
		}
		if (!f.types.includes(typeOf(v))) {
			errors.push(`${path}: expected ${expected}, got ${shown(v)}`);
			continue;
		}
		if (f.fields && typeOf(v) === "object") errors.push(...checkShape(f.fields, v, `${path}.`));
	}
	return errors;
}
