import { ObjectFreeze, ObjectIsFrozen, ObjectValues, SafeStructuredClone } from "./primordials.ts";

/** Freezes a value all the way down (objects and arrays; already-frozen parts, cycles included, are left as they are). */
export function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !ObjectIsFrozen(value)) {
		ObjectFreeze(value);
		const children = ObjectValues(value);
		for (let i = 0; i < children.length; i++) deepFreeze(children[i]);
	}
	return value;
}

/**
 * A deep copy of a tool input, frozen all the way down: a handler that assigns to it throws (ESM
 * hooks are strict mode), and nothing it does can reach the object the tool runs with (docs/contract.md#the-runner).
 * A value that cannot be copied (a function, a class instance with private state) throws.
 */
export function frozenCopy<T>(value: T): T {
	return deepFreeze(SafeStructuredClone(value));
}
