/*
 * The built-in functions the guard path calls, taken once when this module is first evaluated —
 * before any hook code runs — as Node's own core does with its "primordials". A hook that later
 * replaces `Map.prototype.get`, `Promise.race`, `structuredClone` or `JSON.stringify` (a neighbour
 * hook that runs before the guard, say) cannot change what the dispatch loops, the timeouts or the
 * intrinsics check compute with these. Methods are uncurried: `MapPrototypeGet(map, key)` is
 * `map.get(key)` with the `get` and the `call` that were there at start-up.
 *
 * What a hook can still change between its handler and the next step is checked and undone by
 * `intrinsics.ts`; this module is what that check itself, and the code it protects, is written with.
 * A leaf: it imports nothing, and runs in Bun and in Node (pi's extension).
 */

const { bind, call } = Function.prototype;

/** `method(self, ...args)` for `self.method(...args)`, immune to later changes of the method and of `Function.prototype.call`. */
const uncurryThis = bind.bind(call) as <T, A extends unknown[], R>(method: (this: T, ...args: A) => R) => (self: T, ...args: A) => R;

export const ReflectApply = Reflect.apply;
export const ReflectDefineProperty = Reflect.defineProperty;
export const ReflectDeleteProperty = Reflect.deleteProperty;
export const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
export const ReflectGetPrototypeOf = Reflect.getPrototypeOf;
export const ReflectOwnKeys = Reflect.ownKeys;
export const ReflectSetPrototypeOf = Reflect.setPrototypeOf;

export const ObjectFreeze = Object.freeze;
export const ObjectIs = Object.is;
export const ObjectIsFrozen = Object.isFrozen;
export const ObjectHasOwn = Object.hasOwn;
export const ObjectKeys = Object.keys;
export const ObjectValues = Object.values;
export const ObjectSetPrototypeOf = Object.setPrototypeOf;

export const ArrayIsArray = Array.isArray;
export const ArrayPrototypePush = uncurryThis(Array.prototype.push) as <T>(array: T[], ...items: T[]) => number;
export const ArrayPrototypeJoin = uncurryThis(Array.prototype.join) as (array: readonly unknown[], separator?: string) => string;
export const ArrayPrototypeIncludes = uncurryThis(Array.prototype.includes) as (array: readonly unknown[], value: unknown) => boolean;

export const MapPrototypeGet = uncurryThis(Map.prototype.get) as <K, V>(map: ReadonlyMap<K, V>, key: K) => V | undefined;
export const MapPrototypeSet = uncurryThis(Map.prototype.set) as <K, V>(map: Map<K, V>, key: K, value: V) => Map<K, V>;
export const SetPrototypeHas = uncurryThis(Set.prototype.has) as <T>(set: ReadonlySet<T>, value: T) => boolean;
export const SetPrototypeAdd = uncurryThis(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;

export const StringPrototypeIncludes = uncurryThis(String.prototype.includes) as (text: string, part: string) => boolean;
export const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith) as (text: string, part: string) => boolean;
export const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt) as (text: string, index: number) => number;
export const StringFromCharCode = String.fromCharCode;
export const StringPrototypeSlice = uncurryThis(String.prototype.slice) as (text: string, start?: number, end?: number) => string;
/** `text.replace(part, by)` for a string `part` (a string pattern reads no `Symbol.replace` of a RegExp). */
export const StringPrototypeReplace = uncurryThis(String.prototype.replace) as unknown as (
	text: string,
	part: string,
	by: (found: string) => string,
) => string;
export const StringPrototypeEndsWith = uncurryThis(String.prototype.endsWith) as (text: string, part: string) => boolean;

export const JSONParse = JSON.parse;
export const JSONStringify = JSON.stringify;
export const SafeStructuredClone = globalThis.structuredClone;
export const SymbolIterator: typeof Symbol.iterator = Symbol.iterator;
export const ErrorCtor = Error;

/** The `Promise` of start-up: `new SafePromise(…)` is a native promise whatever `globalThis.Promise` became. */
export const SafePromise = Promise;
export const PromisePrototypeThen = uncurryThis(Promise.prototype.then) as <T, R1 = T, R2 = never>(
	promise: Promise<T>,
	onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
	onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
) => Promise<R1 | R2>;
const promiseResolve = Promise.resolve;
/** `Promise.resolve(value)` as it was at start-up. */
export const PromiseResolve = <T>(value: T | PromiseLike<T>): Promise<Awaited<T>> =>
	ReflectApply(promiseResolve, SafePromise, [value]) as Promise<Awaited<T>>;

/**
 * `Promise.race` with the start-up `then`: the built-in race looks `resolve` up on its constructor and
 * `then` up on each promise when it runs, both of which a hook can replace.
 */
export function SafePromiseRace<T>(promises: readonly (T | PromiseLike<T>)[]): Promise<Awaited<T>> {
	return new SafePromise<Awaited<T>>((resolve, reject) => {
		for (let i = 0; i < promises.length; i++) PromisePrototypeThen(PromiseResolve(promises[i] as T), resolve, reject);
	});
}

export const SafeSetTimeout = globalThis.setTimeout;
export const SafeClearTimeout = globalThis.clearTimeout;

/** Whether `value` is a native promise, or an object with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
	return (
		value instanceof SafePromise ||
		(value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function")
	);
}
