import { ArrayPrototypeJoin } from "./primordials.ts";
import { acceptAllIntrinsics, changedIntrinsics, hotIntrinsicsChanged, restoreIntrinsics } from "./intrinsics.ts";

/*
 * What a change of the built-ins (src/intrinsics.ts) means. Every hook handler shares the realm with the
 * runner: after one changed a built-in, nothing computed — the guards after it, the answer — can be
 * trusted. So the dispatch loops look after each handler and once the call is decided: a change is put
 * back at once and the tool call denied naming the hook (fail closed); on other events it is put back
 * and reported. A server that saw one gives up its socket (src/serve/clean-process.ts).
 *
 * Put back, not merely reported: the deny itself, and the answer it becomes, are computed by code that
 * uses these built-ins, and so is everything the agent runs next when we are inside it. A hook that
 * polyfills a built-in that exists is denied like any other change. One that cannot be put back (made
 * read-only) denies every later guarded call of the process, and a bridge answers with the deny it
 * formed before any hook ran (src/agent-call/run.ts).
 */

/** A change of the intrinsics seen in this process: who made it, what changed, whether it was put back. */
export interface IntrinsicDamage {
	/** The hook (its path), or a description of who ran when no single hook can be named. */
	by: string;
	changed: string[];
	repaired: boolean;
}

let damage: IntrinsicDamage | undefined;
let lasting: IntrinsicDamage | undefined;
let damages = 0;
let strict = false;
let running = 0;

/**
 * This process is ours alone (the CLI: `emit`, `bridge`, `serve`): only our code and hooks run in it, so
 * a change found between handlers came from a hook too (its load, a timer it left). Embedded in an
 * agent or a test runner, such a change is the host's and is taken as the new state instead.
 */
export function ownIntrinsics(): void {
	strict = true;
}

/** The first change of the intrinsics seen in this process, if any (a server gives up its socket after it). */
export function intrinsicDamage(): IntrinsicDamage | undefined {
	return damage;
}

/** A change that could not be put back: every later guarded call in this process is denied. */
export function lastingDamage(): IntrinsicDamage | undefined {
	return lasting;
}

/** How many changes were seen so far: a dispatch that saw the count move while it ran was exposed to one. */
export function damageCount(): number {
	return damages;
}

/** What a deny says about a change. */
export function damageReason(found: IntrinsicDamage): string {
	const what =
		found.changed.length > 6 ? `${ArrayPrototypeJoin(found.changed.slice(0, 6), ", ")}, …` : ArrayPrototypeJoin(found.changed, ", ");
	return `${found.by} changed JavaScript built-ins the guard depends on (${what}); nothing computed after that can be trusted, so the call is denied (fail closed)${found.repaired ? "" : "; they could not be put back, and every later guarded call in this process is denied"}`;
}

/**
 * After code of `by` ran (a hook's handler, its import or factory): `undefined` when the intrinsics are
 * as they were; otherwise they are put back at once, the change is recorded, and the reason to deny
 * names `by` and what changed. `quick`: only the most used ones are compared (after each handler).
 */
export function checkIntrinsicsAfter(by: string | (() => string), quick = false): string | undefined {
	if (quick && !hotIntrinsicsChanged()) return lasting ? damageReason(lasting) : undefined;
	const changed = changedIntrinsics();
	if (changed === undefined) return lasting ? damageReason(lasting) : undefined;
	const repaired = restoreIntrinsics();
	const found: IntrinsicDamage = { by: typeof by === "string" ? by : by(), changed, repaired };
	damages++;
	damage ??= found;
	if (!found.repaired) lasting ??= found;
	return damageReason(found);
}

/**
 * Before a dispatch: the reason to deny when the intrinsics changed outside any handler — by a hook in
 * this process of ours (its load, a timer it left, another call's handler still running), or a change
 * that could not be put back. Embedded in another process with no handler running, a change is the
 * host's: taken as it is.
 */
export function checkIntrinsicsBefore(hooks: () => string): string | undefined {
	if (lasting) return damageReason(lasting);
	// The quick look: the full one comes once the call is decided.
	if (!hotIntrinsicsChanged()) return undefined;
	if (!strict && running === 0) {
		acceptAllIntrinsics();
		return undefined;
	}
	return checkIntrinsicsAfter(running > 0 ? "a hook of another call still running" : `a hook (${hooks()}), outside its handlers,`);
}

/** Counts a handler running (`+1`) or done (`-1`): a change found while one runs may be its own. */
export function handlerRunning(delta: 1 | -1): void {
	running += delta;
}
