/**
 * Keeps a test run out of the developer's home, with two checks the preload installs:
 *
 * - Every `Bun.spawn`/`Bun.spawnSync` must hand the child a `HOME` that is not a real home. Bun gives a
 *   child started without `env` the environment Bun itself started with, not `process.env` as the preload
 *   changed it, so such a child sees the real `HOME`; a child whose `env` lacks `HOME` falls back to the
 *   passwd entry's home. Either way a CLI would read the developer's hooks and append to their decision log.
 * - `~/.xcsh` of the HOME the run was started with lists the same files with the same sizes and times
 *   after the run as before.
 */
import { lstatSync, readdirSync } from "node:fs";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";

/** The homes a run must not touch: the `HOME` it was started with (first), and the passwd entry's home. */
export function realHomes(env: Record<string, string | undefined> = process.env): string[] {
	const homes = new Set<string>();
	if (env.HOME) homes.add(resolve(env.HOME));
	try {
		homes.add(resolve(userInfo().homedir));
	} catch {} // no passwd entry for this uid: only HOME counts
	return [...homes];
}

type SpawnOptions = { env?: Record<string, string | undefined> } | undefined;

/** Why a child started with `options` would see a real home, or `undefined` when it would not. */
export function childHomeProblem(options: SpawnOptions, homes: readonly string[]): string | undefined {
	const env = options?.env;
	if (!env) return "no `env`: the child inherits the environment Bun started with, whose HOME is the real one";
	if (!env.HOME) return "an `env` without HOME: the child falls back to the passwd entry's home";
	if (homes.includes(resolve(env.HOME))) return `HOME=${env.HOME} is a real home`;
	return undefined;
}

/**
 * Wraps `Bun.spawn` and `Bun.spawnSync` so that a spawn whose child would see one of `homes` throws,
 * naming the command and the fix. The real functions run every other spawn unchanged.
 */
export function installSpawnGuard(homes: readonly string[]): void {
	const bun = Bun as unknown as Record<"spawn" | "spawnSync", (...args: unknown[]) => unknown>;
	for (const name of ["spawn", "spawnSync"] as const) {
		const real = bun[name];
		bun[name] = (...args: unknown[]) => {
			const [first, second] = args;
			const options = (Array.isArray(first) ? second : first) as SpawnOptions & { cmd?: string[] };
			const problem = childHomeProblem(options, homes);
			if (problem) {
				const argv0 = Array.isArray(first) ? first[0] : options?.cmd?.[0];
				throw new Error(
					`test isolation: Bun.${name}(${JSON.stringify(argv0)}) with ${problem}; pass env: minimalEnv(home) (test/faults/_cli.ts) or env: process.env (the preload's temporary HOME)`,
				);
			}
			return real.apply(Bun, args);
		};
	}
}

/**
 * A bridge call starts a hook server that outlives it (src/socket/autostart.ts); a test must not
 * leave one behind. So every spawn whose `env` does not name `XCSH_HOOKS_SERVER` gets it `off`; a test
 * of the server itself passes `XCSH_HOOKS_SERVER: ""` (the default: on) and kills what it started.
 */
export function serverOffByDefault(): void {
	const bun = Bun as unknown as Record<"spawn" | "spawnSync", (...args: unknown[]) => unknown>;
	for (const name of ["spawn", "spawnSync"] as const) {
		const real = bun[name];
		bun[name] = (...args: unknown[]) => {
			const [first, second] = args;
			const options = (Array.isArray(first) ? second : first) as { env?: Record<string, string | undefined> } | undefined;
			if (options?.env && !("XCSH_HOOKS_SERVER" in options.env)) options.env = { ...options.env, XCSH_HOOKS_SERVER: "off" };
			return real.apply(Bun, args);
		};
	}
}

/** Each entry below `dir` (relative path → kind, size and mtime); empty when `dir` does not exist. */
export function snapshotTree(dir: string, limit = 20_000): Map<string, string> {
	const entries = new Map<string, string>();
	const walk = (rel: string) => {
		if (entries.size >= limit) return;
		let names: string[];
		try {
			names = readdirSync(join(dir, rel));
		} catch {
			return;
		}
		for (const name of names.sort()) {
			if (entries.size >= limit) return;
			const path = rel ? join(rel, name) : name;
			try {
				const stat = lstatSync(join(dir, path));
				entries.set(path, stat.isDirectory() ? "dir" : `${stat.isFile() ? "file" : "other"} ${stat.size} bytes, mtime ${stat.mtimeMs}`);
				if (stat.isDirectory()) walk(path);
			} catch {} // removed while we looked: the next snapshot tells
		}
	};
	walk("");
	return entries;
}

/** What differs between two snapshots, one line per entry. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
	const lines: string[] = [];
	for (const [path, now] of after) {
		const was = before.get(path);
		if (was === undefined) lines.push(`added ${path} (${now})`);
		else if (was !== now && now !== "dir") lines.push(`changed ${path} (was ${was}; now ${now})`);
	}
	for (const path of before.keys()) if (!after.has(path)) lines.push(`removed ${path}`);
	return lines;
}

/**
 * Snapshots `~/.xcsh` of each home now; `check()` throws, listing the changes, when one differs.
 * `XCSH_HOOKS_TESTS_ALLOW_HOME_CHANGES=1` turns the check off, for a machine where something else (an
 * agent with xcsh-hooks installed) writes there during the run.
 */
export function watchHomes(homes: readonly string[]): { check(): void } {
	const dirs = homes.map((home) => join(home, ".xcsh"));
	const before = dirs.map((dir) => snapshotTree(dir));
	return {
		check() {
			if (process.env.XCSH_HOOKS_TESTS_ALLOW_HOME_CHANGES === "1") return;
			const changes = dirs.flatMap((dir, i) =>
				diffSnapshots(before[i] as Map<string, string>, snapshotTree(dir)).map((l) => `${dir}: ${l}`),
			);
			if (changes.length)
				throw new Error(
					`test isolation: the run changed the real home's .xcsh (a test started a CLI or wrote with the real HOME):\n${changes.join("\n")}\n(when something else on this machine writes there during the run, set XCSH_HOOKS_TESTS_ALLOW_HOME_CHANGES=1)`,
				);
		},
	};
}
