/*
 * "Did you mean": one helper for every name a user or a hook author can mistype — a command
 * (`instal`), an agent (`claud`), an event (`tool_cal` in `pi.on` or `emit`), a tool, a template.
 * A typo gets the nearest names, never a wall of every name on one line.
 */

/** Levenshtein distance between `a` and `b` (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++)
			row[j] = Math.min(
				(previous[j] as number) + 1,
				(row[j - 1] as number) + 1,
				(previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		previous = row;
	}
	return previous[b.length] as number;
}

/**
 * The known names closest to `name`, nearest first (at most `max`): those within an edit distance of
 * a third of the name (at least 2; 1 for a name of up to 4 letters), and those the name is the start of (`sess` → `session_start`, …).
 * Case is ignored (`Tool_Call` is close to `tool_call`).
 */
export function nearestNames(name: string, known: Iterable<string>, max = 3): string[] {
	const wanted = name.toLowerCase();
	// A short name allows one edit: within two, `tcsh` would be "close" to bash, zsh and fish alike.
	const limit = wanted.length <= 4 ? 1 : Math.max(2, Math.floor(wanted.length / 3));
	const scored: Array<[name: string, score: number]> = [];
	for (const candidate of known) {
		const lower = candidate.toLowerCase();
		const distance = editDistance(wanted, lower);
		if (distance <= limit) scored.push([candidate, distance]);
		else if (wanted.length >= 3 && lower.startsWith(wanted)) scored.push([candidate, limit + 1]);
	}
	return scored
		.sort((a, b) => a[1] - b[1])
		.slice(0, max)
		.map(([candidate]) => candidate);
}

/** ` (did you mean "a"?)`, ` (did you mean "a", "b" or "c"?)`, or "" when nothing is close. */
export function didYouMean(name: string, known: Iterable<string>): string {
	const near = nearestNames(name, known).map((n) => JSON.stringify(n));
	if (near.length === 0) return "";
	const list = near.length === 1 ? near[0] : `${near.slice(0, -1).join(", ")} or ${near.at(-1)}`;
	return ` (did you mean ${list}?)`;
}

/**
 * The message for an unknown name: `unknown agent "claud" (did you mean "claude"?)`. When nothing is
 * close, a short list of every name (up to 10), else `all` — a hint where they are listed.
 */
export function unknownName(what: string, name: string, known: readonly string[], all?: string): string {
	const hint = didYouMean(name, known);
	if (hint) return `unknown ${what} ${JSON.stringify(name)}${hint}`;
	const rest = known.length <= 10 || all === undefined ? `; expected one of: ${known.join(", ")}` : `; ${all}`;
	return `unknown ${what} ${JSON.stringify(name)}${rest}`;
}
