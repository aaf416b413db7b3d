/*
 * Hooks are other people's code: what they throw or return may be anything — an Error whose
 * `message` getter throws, `Object.create(null)`, a Proxy whose traps throw. Every place that prints
 * such a value goes through these, which never throw.
 */

const UNPRINTABLE = "<unprintable>";

function isError(value: unknown): value is Error {
	try {
		return value instanceof Error;
	} catch {
		return false;
	}
}

/** A value as text: a string as is, else `String(value)`, else (SPEC §6) `<unprintable>`. */
export function describeValue(value: unknown): string {
	if (typeof value === "string") return value;
	try {
		const text = String(value);
		if (typeof text === "string") return text;
	} catch {}
	return UNPRINTABLE;
}

/** The message of a thrown value: an Error's `message` (read safely), anything else described. */
export function errorMessage(error: unknown): string {
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
 * else becomes `new Error(prefix + description)` (SPEC §6: `Hook failed, blocking execution: <value>`).
 */
export function toSafeError(thrown: unknown, prefix: string): Error {
	if (isError(thrown)) {
		try {
			if (typeof thrown.message === "string") return thrown;
		} catch {}
		return new Error(`${prefix}${UNPRINTABLE}`);
	}
	return new Error(`${prefix}${describeValue(thrown)}`);
}
