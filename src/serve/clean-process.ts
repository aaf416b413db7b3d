import { intrinsicDamage } from "../intrinsic-damage.ts";
import { changedIntrinsics } from "../intrinsics.ts";

/*
 * A server answers the calls of every project on the machine in one process, so what one project's
 * hooks leave in that process the next call — maybe another project's — would inherit: a built-in
 * replaced (src/intrinsics.ts: that call was denied and the built-in put back, but nothing the hook
 * set up since, a captured reference, a cached value, can be trusted), a new global, a changed
 * `process.env`. A server proves it is clean after each call and before it takes the next; when it
 * cannot, it gives up its socket and exits, and the next call runs on its own (docs/security.md).
 *
 * Not covered (a documented limit): state inside modules (a package's cache, the module registry,
 * a prototype of a class a hook defined), which no check short of a new process can see.
 */

const describeKey = (key: PropertyKey) => (typeof key === "symbol" ? String(key) : key);

/** Whether `now` holds the same keys as `then`, in the same order (what a process nothing changed shows). */
function sameKeys(now: readonly PropertyKey[], then: readonly PropertyKey[]): boolean {
	if (now.length !== then.length) return false;
	for (let i = 0; i < now.length; i++) if (now[i] !== then[i]) return false;
	return true;
}

/** Takes the state a call must leave as it found; the function says what changed since, or `undefined`. */
export function processSnapshot(): () => string | undefined {
	const globalKeys = Reflect.ownKeys(globalThis);
	const globals = new Set(globalKeys);
	const envKeys = Object.keys(process.env);
	const env = new Map(Object.entries(process.env));
	/** Whether `process.env` is as it was: its keys in the same order, each with its value (no arrays built). */
	const sameEnv = (keys: readonly string[]) => {
		if (!sameKeys(keys, envKeys)) return false;
		for (let i = 0; i < keys.length; i++) {
			const key = keys[i] as string;
			if (process.env[key] !== env.get(key)) return false;
		}
		return true;
	};
	return () => {
		const damage = intrinsicDamage();
		if (damage !== undefined) return `${damage.by} changed JavaScript built-ins (${damage.changed.join(", ")})`;
		const changed = changedIntrinsics();
		if (changed !== undefined) return `JavaScript built-ins changed outside any hook's handler (${changed.join(", ")})`;
		// The usual case first, compared in place; any difference is then looked at key by key.
		const keys = Reflect.ownKeys(globalThis);
		if (!sameKeys(keys, globalKeys)) {
			const added = keys.filter((key) => !globals.has(key));
			if (added.length > 0) return `a hook added global(s) ${added.map(describeKey).join(", ")}`;
		}
		if (sameEnv(Object.keys(process.env))) return undefined;
		const now = Object.entries(process.env);
		const envChanged = now.filter(([key, value]) => env.get(key) !== value).map(([key]) => key);
		for (const key of env.keys()) if (!Object.hasOwn(process.env, key)) envChanged.push(key);
		if (envChanged.length > 0) return `a hook changed process.env (${envChanged.join(", ")})`;
		return undefined;
	};
}
