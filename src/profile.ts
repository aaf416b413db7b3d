/*
 * `XCSH_HOOKS_PROFILE=1`: the CLI records when each start-up phase ended (ms since the process
 * started, `performance.now()`) and prints them as one line on stderr at exit, for `bun run bench`
 * to read (`xcsh-hooks-profile {"marks":[["entry",2.1],…]}`). Off, a mark is one `undefined` check.
 */

const marks: Array<[string, number]> | undefined =
	process.env.XCSH_HOOKS_PROFILE === "1" ? [["first-module", performance.now()]] : undefined;

/** Writes one line to stderr, synchronously (Bun's console); taken before any hook could replace it. */
const writeLine = marks === undefined ? undefined : console.error.bind(console);

/** The prefix of the profile line on stderr. */
export const PROFILE_PREFIX = "xcsh-hooks-profile ";

/** Whether phase timings are being recorded. */
export const profiling = (): boolean => marks !== undefined;

/** Records that the phase `name` ended now. */
export function mark(name: string): void {
	marks?.push([name, performance.now()]);
}

/** Records a phase that began at `start` (a `performance.now()`) and ended now, for phases that overlap (hook imports). */
export function span(name: string, start: number): void {
	marks?.push([`${name}@${start.toFixed(3)}`, performance.now()]);
}

/** Writes the recorded marks to stderr (once); nothing when not profiling. */
export function flushProfile(): void {
	if (!marks || marks.length === 0) return;
	mark("exit");
	const rounded = marks.map(([name, ms]) => [name, Math.round(ms * 1000) / 1000]);
	// Through the console as it was at start-up (a hook may replace `console.error` later): node:fs would
	// cost a served call's profile ≈1–2 ms of loading, which would show as a slower exit.
	writeLine?.(`${PROFILE_PREFIX}${JSON.stringify({ marks: rounded })}`);
	marks.length = 0;
}
