/*
 * Hooks are other people's code: what they throw or return may be anything — an Error whose
 * `message` getter throws, `Object.create(null)`, a Proxy whose traps throw. Every place that prints
 * such a value goes through these, which never throw.
 */

import { XcshError } from "../errors.ts";

const UNPRINTABLE = "<unprintable>";

function isError(value: unknown): value is Error {
	try {
		return value instanceof Error;
	} catch {
		return false;
	}
}

/** A value as text: a string as is, else `String(value)`, else (docs/contract.md#the-tool-wrapper) `<unprintable>`. */
export function describeValue(value: unknown): string {
	if (typeof value === "string") return value;
	try {
		const text = String(value);
		if (typeof text === "string") return text;
	} catch {}
	return UNPRINTABLE;
}

interface SourcePosition {
	file?: string;
	line?: number;
	column?: number;
}

/**
 * Bun's build and resolve errors (a syntax error in a hook, an import that cannot be found) carry the
 * position; shown as `file:line:column: message`, the first one with how many more there are.
 */
function positionedMessage(error: unknown): string | undefined {
	try {
		const list = (error as { errors?: unknown }).errors;
		const items = Array.isArray(list) && list.length > 0 ? list : [error];
		const first = items[0] as { message?: unknown; position?: SourcePosition | null };
		const at = first?.position;
		if (!at || typeof at.file !== "string" || typeof at.line !== "number") return undefined;
		const file = at.file.replace(/\?.*$/, ""); // approved imports carry a query naming their load
		const more = items.length > 1 ? ` (and ${items.length - 1} more)` : "";
		return `${file}:${at.line}:${at.column ?? 0}: ${String(first.message)}${more}`;
	} catch {
		return undefined;
	}
}

/** The message of a thrown value: an Error's `message` (read safely; with the source position of a build error), anything else described. */
export function errorMessage(error: unknown): string {
	const positioned = positionedMessage(error);
	if (positioned !== undefined) return positioned;
	if (isError(error)) {
		try {
			const message = error.message;
			if (typeof message === "string") return message;
			return describeValue(message);
		} catch {
			return UNPRINTABLE;
		}
	}
	return describeValue(error);
}

/** The stack of a thrown Error, when it can be read. */
export function errorStack(error: unknown): string | undefined {
	if (!isError(error)) return undefined;
	try {
		return typeof error.stack === "string" ? error.stack : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A thrown value as an Error that is safe to print: a readable Error is kept as it is; anything
 * else becomes `new Error(prefix + description)` (docs/contract.md#the-tool-wrapper: `Hook failed, blocking execution: <value>`).
 */
export function toSafeError(thrown: unknown, prefix: string): Error {
	if (isError(thrown)) {
		try {
			if (typeof thrown.message === "string") return thrown;
		} catch {}
		return new XcshError("HOOK_FAILED", `${prefix}${UNPRINTABLE}`);
	}
	return new XcshError("HOOK_FAILED", `${prefix}${describeValue(thrown)}`);
}
