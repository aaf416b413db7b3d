/**
 * A deep copy of a tool input, frozen all the way down: a handler that assigns to it throws (ESM
 * hooks are strict mode), and nothing it does can reach the object the tool runs with (SPEC §5).
 * A value that cannot be copied (a function, a class instance with private state) throws.
 */
export function frozenCopy<T>(value: T): T {
	return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
	if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
	for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
	return Object.freeze(value);
}
