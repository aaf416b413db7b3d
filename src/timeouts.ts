import { PromisePrototypeThen, SafeClearTimeout, SafePromise, SafePromiseRace, SafeSetTimeout } from "./primordials.ts";

/** The longest delay a timer can hold: `setTimeout` overflows past 2^31 - 1 ms and fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks a timeout option in milliseconds: absent → no timeout; a positive number → that many ms,
 * where anything longer than a timer can hold (`Infinity` included) means no timeout rather than
 * "fire at once"; zero, a negative number, NaN or a non-number is an error naming `name`.
 */
export function checkTimeout(value: unknown, name: string): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== "number" || Number.isNaN(value) || value <= 0)
		throw new RangeError(
			`${name}: expected a positive number of milliseconds (Infinity for none), got ${typeof value === "number" ? String(value) : typeof value}`,
		);
	return value > MAX_TIMER_MS ? undefined : value;
}

/** A timer delay that is safe to pass to `setTimeout`, or `undefined` for "no timeout" (0, negative, NaN, too large). */
export function timerDelay(ms: number | undefined): number | undefined {
	return ms !== undefined && ms > 0 && ms <= MAX_TIMER_MS ? ms : undefined;
}

/**
 * `promise`, or what `onTimeout` gives (or throws) once `ms` have passed without it settling; the timer is
 * cleared either way. A delay no timer can hold (`timerDelay`) means no timeout: `promise` as it is.
 */
export function withTimeout<T, U>(promise: Promise<T>, ms: number | undefined, onTimeout: () => U): Promise<T | U> {
	const delay = timerDelay(ms);
	if (delay === undefined) return promise;
	// The built-ins of start-up (primordials.ts): a hook may have replaced `Promise.race` or `then` by now.
	let timer: ReturnType<typeof setTimeout> | undefined;
	const expired = new SafePromise<U>((resolve, reject) => {
		timer = SafeSetTimeout(() => {
			try {
				resolve(onTimeout());
			} catch (error) {
				reject(error);
			}
		}, delay);
	});
	const clear = () => SafeClearTimeout(timer);
	return PromisePrototypeThen(
		SafePromiseRace<T | U>([promise, expired]),
		(value) => {
			clear();
			return value;
		},
		(error: unknown) => {
			clear();
			throw error;
		},
	);
}
