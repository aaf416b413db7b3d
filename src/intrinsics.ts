import {
	ArrayPrototypePush,
	ObjectIs,
	ObjectHasOwn,
	ReflectDefineProperty,
	ReflectDeleteProperty,
	ReflectGetOwnPropertyDescriptor,
	ReflectGetPrototypeOf,
	ReflectOwnKeys,
	ReflectSetPrototypeOf,
	SetPrototypeAdd,
	SetPrototypeHas,
} from "./primordials.ts";

/*
 * The shared intrinsics the guard path depends on (built-in prototypes and constructors, a few globals,
 * `process.exit`), as they were when this module was first evaluated, before any hook code ran. Every
 * hook handler runs in the same realm as the runner, so one that replaces `Map.prototype.get`, adds
 * `Object.prototype.then` or swaps `globalThis.Promise` changes what everything after it computes,
 * the guard that runs next included. This module holds them, compares them with what is in place (a
 * quick look at the most replaced ones, under 1 µs; a full one, a few µs) and puts them back;
 * intrinsic-damage.ts decides what a change means for a call (docs/security.md).
 *
 * Additions to the prototypes every object, array, function or promise inherits from count as changes
 * (an `Object.prototype.then` makes every object a thenable); added globals do not (a server checks
 * those across calls, src/serve/clean-process.ts).
 */

/** One watched object: the descriptors of its watched own properties as they were, and its prototype. */
interface Watched {
	holder: object;
	label: string;
	keys: PropertyKey[];
	/** As `getOwnPropertyDescriptor` gave them (put back through {@link plainDescriptor}). */
	saved: PropertyDescriptor[];
	/** Every own key is watched: an added one is a change too. */
	known: Set<PropertyKey> | undefined;
	count: number;
	proto: object | null;
	/** What the quick check after each handler compares: indices into `keys`, and whether added keys count. */
	hot: number[];
	hotAdditions: boolean;
}

const watched: Watched[] = [];

const isObject = (value: unknown): value is object => value !== null && (typeof value === "object" || typeof value === "function");
const keyLabel = (key: PropertyKey) => (typeof key === "symbol" ? `[${String(key).slice(7, -1)}]` : String(key));

const saveDescriptor = (holder: object, key: PropertyKey): PropertyDescriptor | undefined => ReflectGetOwnPropertyDescriptor(holder, key);

/**
 * A descriptor with only its own fields and no prototype, for `defineProperty`, which reads `get` and
 * `value` through the prototype chain: an `Object.prototype.get` a hook added would make it throw.
 */
function plainDescriptor(d: PropertyDescriptor): PropertyDescriptor {
	return (ObjectHasOwn(d, "get") || ObjectHasOwn(d, "set")
		? ({ __proto__: null, get: d.get, set: d.set, enumerable: d.enumerable, configurable: d.configurable } as unknown)
		: ({
				__proto__: null,
				value: d.value,
				writable: d.writable,
				enumerable: d.enumerable,
				configurable: d.configurable,
			} as unknown)) as unknown as PropertyDescriptor;
}

/**
 * Starts watching `holder`'s own properties (`names`, or all it has); `hot` are the ones the quick
 * check compares too (all when `true`); with `additions`, a key added is a change too (the quick check
 * counts them when `hot` is `true`).
 */
function watch(
	holder: unknown,
	label: string,
	names: readonly PropertyKey[] | undefined,
	hot: readonly PropertyKey[] | true,
	additions = false,
): void {
	if (!isObject(holder)) return;
	const item: Watched = {
		holder,
		label,
		keys: [],
		saved: [],
		known: additions ? new Set<PropertyKey>() : undefined,
		count: 0,
		proto: ReflectGetPrototypeOf(holder),
		hot: [],
		hotAdditions: additions && hot === true,
	};
	// Start-up, before any hook: the built-ins as they are (cheaper than the taken ones while cold).
	const keys = names ?? Reflect.ownKeys(holder);
	for (let i = 0; i < keys.length; i++) {
		const key = keys[i] as PropertyKey;
		const desc = Reflect.getOwnPropertyDescriptor(holder, key);
		if (desc === undefined) continue;
		if (hot === true || hot.includes(key)) item.hot.push(item.keys.length);
		item.keys.push(key);
		item.saved.push(desc);
		item.known?.add(key);
	}
	item.count = Reflect.ownKeys(holder).length;
	watched.push(item);
}

const same = (now: PropertyDescriptor | undefined, then: PropertyDescriptor) =>
	now !== undefined && ObjectIs(now.value, then.value) && now.get === then.get && now.set === then.set;

{
	const protoOf = (value: unknown) => (isObject(value) ? ReflectGetPrototypeOf(value) : undefined);
	const iteratorProto = protoOf(protoOf([][Symbol.iterator]()));
	const typedArray = protoOf(Uint8Array);
	const it = Symbol.iterator;
	// [holder, label, the keys the quick check after each handler compares (the ones most often replaced,
	// and what an \`await\` and the loop between handlers go through; the full check after the call compares
	// every key), whether added keys count (those every object, array, function or promise would inherit),
	// the keys watched when not all (what we and the guards use of a holder with many)]. Object.prototype first: the rest is put back with its additions gone.
	const whole: Array<[unknown, string, readonly PropertyKey[] | true, boolean?, (readonly PropertyKey[])?]> = [
		[Object.prototype, "Object.prototype", true, true],
		[
			Object,
			"Object",
			["freeze"],
			false,
			[
				"keys",
				"values",
				"entries",
				"assign",
				"freeze",
				"isFrozen",
				"hasOwn",
				"defineProperty",
				"defineProperties",
				"getOwnPropertyDescriptor",
				"getOwnPropertyNames",
				"getPrototypeOf",
				"setPrototypeOf",
				"create",
				"fromEntries",
				"is",
			],
		],
		[Function.prototype, "Function.prototype", ["call", "apply"], true],
		[Array, "Array", [], false, ["isArray", "from", "of", Symbol.species]],
		[Array.prototype, "Array.prototype", [it], true],
		[iteratorProto, "Iterator.prototype", [], false, [it]],
		[protoOf([][Symbol.iterator]()), "ArrayIterator.prototype", ["next"], true],
		[protoOf(new Map()[Symbol.iterator]()), "MapIterator.prototype", [], false, ["next"]],
		[protoOf(new Set()[Symbol.iterator]()), "SetIterator.prototype", [], false, ["next"]],
		[protoOf(""[Symbol.iterator]()), "StringIterator.prototype", [], false, ["next"]],
		[
			String.prototype,
			"String.prototype",
			["includes"],
			false,
			[
				it,
				"includes",
				"startsWith",
				"endsWith",
				"indexOf",
				"lastIndexOf",
				"slice",
				"substring",
				"at",
				"charAt",
				"charCodeAt",
				"codePointAt",
				"split",
				"match",
				"matchAll",
				"search",
				"replace",
				"replaceAll",
				"trim",
				"trimStart",
				"trimEnd",
				"toLowerCase",
				"toUpperCase",
				"normalize",
				"padStart",
				"padEnd",
				"repeat",
				"concat",
				"toString",
				"valueOf",
			],
		],
		[Map, "Map", [], false, [Symbol.species]],
		[Map.prototype, "Map.prototype", ["get"]],
		[Set, "Set", [], false, [Symbol.species]],
		[Set.prototype, "Set.prototype", []],
		[WeakMap.prototype, "WeakMap.prototype", []],
		[WeakSet.prototype, "WeakSet.prototype", []],
		[Promise, "Promise", ["resolve", "race"]],
		[Promise.prototype, "Promise.prototype", ["then", "constructor"], true],
		[JSON, "JSON", ["parse", "stringify"], false, ["parse", "stringify"]],
		[Reflect, "Reflect", []],
		[RegExp.prototype, "RegExp.prototype", []],
		[
			isObject(typedArray) ? (typedArray as { prototype: unknown }).prototype : undefined,
			"TypedArray.prototype",
			[],
			false,
			[it, "set", "subarray", "slice", "indexOf"],
		],
		[Error.prototype, "Error.prototype", [], false, ["toString", "name", "message"]],
		// The served protocol writes its answers with it.
		[globalThis.TextEncoder?.prototype, "TextEncoder.prototype", [], false, ["encode"]],
	];
	for (const [holder, label, hot, additions, names] of whole) watch(holder, label, names, hot, additions);
	watch(Error, "Error", ["captureStackTrace"], []);
	// The globals our code reaches for anyway (reading one Bun builds on first use costs up to 0.3 ms).
	const globals = [
		"Object",
		"Function",
		"Array",
		"String",
		"Symbol",
		"Map",
		"Set",
		"Promise",
		"JSON",
		"Reflect",
		"Error",
		"RegExp",
		"Uint8Array",
		"TextEncoder",
		"structuredClone",
		"queueMicrotask",
		"setTimeout",
		"clearTimeout",
		"setImmediate",
		"Bun",
		"process",
	];
	watch(globalThis, "globalThis", globals, ["Promise", "structuredClone"]);
	watch(globalThis.process, "process", ["exit", "reallyExit", "env"], ["exit", "reallyExit"]);
	// Only what is cheap to read: some of Bun's and Node's members are built on first read (process.nextTick: ~2 ms).
	watch((globalThis as { Bun?: unknown }).Bun, "Bun", ["write", "file", "spawn"], ["write"]);
}

/** The watched intrinsics that differ from what they were (`Map.prototype.get`, `Object.prototype.then (added)`…); `undefined` when none does. */
export function changedIntrinsics(): string[] | undefined {
	let found: string[] | undefined;
	const note = (what: string) => {
		found ??= [];
		ArrayPrototypePush(found, what);
	};
	for (let w = 0; w < watched.length; w++) {
		const item = watched[w] as Watched;
		const { holder, keys, saved, known } = item;
		if (ReflectGetPrototypeOf(holder) !== item.proto) note(`${item.label} (its prototype)`);
		for (let i = 0; i < keys.length; i++)
			if (!same(ReflectGetOwnPropertyDescriptor(holder, keys[i] as PropertyKey), saved[i] as PropertyDescriptor))
				note(`${item.label}.${keyLabel(keys[i] as PropertyKey)}`);
		if (known === undefined) continue;
		const now = ReflectOwnKeys(holder);
		if (now.length === item.count && found === undefined) continue;
		for (let i = 0; i < now.length; i++)
			if (!SetPrototypeHas(known, now[i] as PropertyKey)) note(`${item.label}.${keyLabel(now[i] as PropertyKey)} (added)`);
	}
	return found;
}

const promiseThen = saveDescriptor(Promise.prototype, "then") as PropertyDescriptor;
const promiseConstructor = saveDescriptor(Promise.prototype, "constructor") as PropertyDescriptor;

/**
 * Whether an `await` of a native promise still goes the way it did: what it reads (`constructor`, and
 * `then` once that differs) and what would make any object a thenable. A fraction of the quick check,
 * taken between an async handler's return and the `await` of its promise (the quick check follows it).
 */
export function awaitChanged(): boolean {
	return (
		!same(ReflectGetOwnPropertyDescriptor(Promise.prototype, "constructor"), promiseConstructor) ||
		!same(ReflectGetOwnPropertyDescriptor(Promise.prototype, "then"), promiseThen) ||
		ReflectGetOwnPropertyDescriptor(Object.prototype, "then") !== undefined
	);
}

/**
 * Whether the intrinsics the dispatch loops and the answer writers use most are as they were: the
 * check after each handler (about 1 µs); the full {@link changedIntrinsics} runs once per call.
 */
export function hotIntrinsicsChanged(): boolean {
	for (let w = 0; w < watched.length; w++) {
		const item = watched[w] as Watched;
		const { holder, keys, saved, hot } = item;
		for (let i = 0; i < hot.length; i++) {
			const k = hot[i] as number;
			if (!same(ReflectGetOwnPropertyDescriptor(holder, keys[k] as PropertyKey), saved[k] as PropertyDescriptor)) return true;
		}
		if (item.hotAdditions && (ReflectOwnKeys(holder).length !== item.count || ReflectGetPrototypeOf(holder) !== item.proto)) return true;
	}
	return false;
}

/** Puts every watched intrinsic back as it was (additions deleted); `false` when some could not be (made non-configurable, frozen). */
export function restoreIntrinsics(): boolean {
	for (let w = 0; w < watched.length; w++) {
		const item = watched[w] as Watched;
		const { holder, keys, saved, known } = item;
		if (ReflectGetPrototypeOf(holder) !== item.proto) ReflectSetPrototypeOf(holder, item.proto);
		if (known !== undefined) {
			const now = ReflectOwnKeys(holder);
			for (let i = 0; i < now.length; i++)
				if (!SetPrototypeHas(known, now[i] as PropertyKey)) ReflectDeleteProperty(holder, now[i] as PropertyKey);
		}
		for (let i = 0; i < keys.length; i++) {
			const key = keys[i] as PropertyKey;
			const then = saved[i] as PropertyDescriptor;
			if (same(ReflectGetOwnPropertyDescriptor(holder, key), then)) continue;
			try {
				ReflectDefineProperty(holder, key, plainDescriptor(then));
			} catch {
				// A holder a hook made exotic: left as it is, and the change stays reported.
			}
		}
	}
	return changedIntrinsics() === undefined;
}

/**
 * Takes the current value of `holder[key]` as the one to keep: our own guards replace a few watched
 * intrinsics on purpose (`process.exit` while hooks run, the counting `setTimeout`).
 */
export function acceptIntrinsic(holder: object, key: PropertyKey): void {
	for (let w = 0; w < watched.length; w++) {
		const item = watched[w] as Watched;
		if (item.holder !== holder) continue;
		for (let i = 0; i < item.keys.length; i++) {
			if (item.keys[i] !== key) continue;
			const desc = saveDescriptor(holder, key);
			if (desc !== undefined) item.saved[i] = desc;
		}
	}
}

/** Takes every watched intrinsic as it is now as the one to keep (an agent's own process changed them between calls). */
export function acceptAllIntrinsics(): void {
	for (let w = 0; w < watched.length; w++) {
		const item = watched[w] as Watched;
		item.proto = ReflectGetPrototypeOf(item.holder);
		for (let i = 0; i < item.keys.length; i++) {
			const desc = saveDescriptor(item.holder, item.keys[i] as PropertyKey);
			if (desc !== undefined) item.saved[i] = desc;
		}
		if (item.known === undefined) continue;
		const now = ReflectOwnKeys(item.holder);
		for (let i = 0; i < now.length; i++) {
			const key = now[i] as PropertyKey;
			if (SetPrototypeHas(item.known, key)) continue;
			const desc = saveDescriptor(item.holder, key);
			if (desc === undefined) continue;
			SetPrototypeAdd(item.known, key);
			ArrayPrototypePush(item.keys, key);
			ArrayPrototypePush(item.saved, desc);
		}
		item.count = now.length;
	}
}
