/**
 * What flows along a command line as the analyzer walks it: the directories a command may run in
 * (`cd`, `pushd`, `popd`, `CDPATH`), and the variables the line itself set (`d=$(mktemp -d)`).
 *
 * The directory is a set: `cd x; rm -r y` runs `rm` in `x`, or where it was when `cd` failed, so
 * `rm` is judged in both. After `&&`, only the state where `cd` succeeded goes on.
 */
import { resolveFrom } from "./words.ts";

/** A directory a command may run in; `undefined` when it cannot be known. */
export type Dir = string | undefined;

/** The directories the walk may be in, and those it may be in had a `cd` failed. Shared by a list. */
export interface Dirs {
	now: Dir[];
	/** States left behind by commands that may have failed, merged in at the next statement. */
	failed: Dir[];
	/** `pushd` stack, top last; `undefined` entries are unknown. */
	stack: Dir[][];
	/** `OLDPWD`, when the line set it. */
	old?: Dir[] | undefined;
}

/** A variable the line set: its value when known (`computed` when not), and whether it may be empty. */
export interface Var {
	text: string;
	computed: boolean;
	/** The value came from a command that may have failed (`d=$(mktemp -d); …`): it may be empty. */
	mayBeEmpty?: boolean;
}

const MAX_DIRS = 6;

/** `dirs` with duplicates removed; too many alternatives collapse to "unknown". */
export function distinct(dirs: readonly Dir[]): Dir[] {
	const out = [...new Set(dirs)];
	return out.length > MAX_DIRS ? [undefined] : out;
}

export const newDirs = (cwd: string): Dirs => ({ now: [cwd], failed: [], stack: [] });

/** A copy for a subshell or pipeline stage: what it changes does not come back. */
export const copyDirs = (dirs: Dirs): Dirs => ({
	now: distinct([...dirs.now, ...dirs.failed]),
	failed: [],
	stack: dirs.stack.map((entry) => [...entry]),
	old: dirs.old,
});

/** At a statement boundary (`;`, newline, `||`): the states where an earlier command failed join in. */
export function settle(dirs: Dirs): void {
	if (dirs.failed.length === 0) return;
	dirs.now = distinct([...dirs.now, ...dirs.failed]);
	dirs.failed = [];
}

/** Moves every state to `next(state)`; the old states stay possible, had the move failed. */
export function move(dirs: Dirs, next: (from: Dir) => Dir[]): void {
	const before = dirs.now;
	dirs.failed = distinct([...dirs.failed, ...before]);
	dirs.now = distinct(before.flatMap(next));
	dirs.old = before;
}

/** Where `cd`/`pushd` with operand `target` goes from `from` (every `CDPATH` entry it may pick). */
export function cdTargets(from: Dir, target: string, computed: boolean, home: string, cdpath: Var | undefined): Dir[] {
	if (computed) return [undefined];
	const here =
		from === undefined && !target.startsWith("/") && !/^(?:~|\$HOME)(?:\/|$)/.test(target) ? undefined : resolveFrom(from, target, home);
	if (target.startsWith("/") || /^\.\.?(?:\/|$)/.test(target) || target.startsWith("~")) return [here];
	if (!cdpath || cdpath.text === "") return [here];
	if (cdpath.computed) return [undefined];
	const found = cdpath.text
		.split(":")
		.map((entry) => (entry === "" ? here : resolveFrom(from, `${entry.replace(/\/+$/, "")}/${target}`, home)));
	return [...found, here];
}
