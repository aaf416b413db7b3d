/**
 * How an agent reads a matcher (docs/sources-and-trust.md#hooks-you-already-have). Absent, `""` and `*` match everything in all four.
 * - `claude`: a matcher made only of letters, digits, `_`, `-`, spaces, `,` and `|` is a list of exact
 *   names (`Edit|Write`, `Edit, Write`); anything else is an unanchored regular expression (`Edit.*`
 *   also matches `NotebookEdit`). An invalid expression matches nothing.
 * - `codex`: an unanchored regular expression; an invalid one matches nothing.
 * - `regex-or-exact` (Gemini, Cursor): an unanchored regular expression; an invalid one is compared exactly.
 */
export type MatchMode = "claude" | "codex" | "regex-or-exact";

const NAMES = /^[A-Za-z0-9_\-, |]+$/;

/** Whether `matcher` selects `subject` under the agent's rules. */
export function matches(matcher: string | undefined, subject: string, mode: MatchMode): boolean {
	if (matcher === undefined || matcher === "" || matcher === "*") return true;
	if (mode === "claude" && NAMES.test(matcher))
		return matcher
			.split(/[|,]/)
			.map((name) => name.trim())
			.includes(subject);
	const pattern = compiled(matcher);
	if (pattern === undefined) return mode === "regex-or-exact" && matcher === subject;
	return pattern.test(subject);
}

/** Each matcher compiled once per process (they are checked on every tool event); `undefined` when invalid. */
const patterns = new Map<string, RegExp | undefined>();
function compiled(matcher: string): RegExp | undefined {
	if (patterns.has(matcher)) return patterns.get(matcher);
	let pattern: RegExp | undefined;
	try {
		pattern = new RegExp(matcher);
	} catch {
		pattern = undefined;
	}
	patterns.set(matcher, pattern);
	return pattern;
}

/** A warning for a matcher the agent cannot compile (it then matches nothing, or only itself). */
export function matcherProblem(matcher: string | undefined, mode: MatchMode): string | undefined {
	if (!matcher || matcher === "*" || (mode === "claude" && NAMES.test(matcher)) || compiled(matcher)) return undefined;
	try {
		new RegExp(matcher);
		return undefined;
	} catch (error) {
		return `is not a valid regular expression (${(error as Error).message})`;
	}
}
