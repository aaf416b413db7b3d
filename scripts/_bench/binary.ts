/** The executables the bench starts: `dist/xcsh-hooks` (built when stale) and a trivial compiled program. */
import { chmodSync, closeSync, copyFileSync, existsSync, fsyncSync, openSync, readSync, renameSync, statSync } from "node:fs";
import { join, relative } from "pathe";
import { BENCH_DIR, tempDir, writeFiles } from "./fixtures.ts";
import type { Report } from "./report.ts";

/** The repository root. */
export const ROOT = join(import.meta.dir, "..", "..");
/** The executable as `bun run build` writes it. */
const BUILT = join(ROOT, "dist", "xcsh-hooks");
/**
 * The executable under test: a copy of {@link BUILT} written afresh by every run, like the trivial
 * program each run compiles. How a file sits in the page cache moves its start-up: two byte-identical
 * copies of the executable, one written just now and one the machine had run for an hour, took 8.8 and
 * 10.6 ms (the same once the cache was dropped) — more than a budget's margin, and on one side only.
 * Set by {@link ensureExecutable}, which every section that starts it awaits first; until then a path
 * where nothing is, so a section that forgot fails at once instead of timing the stale build.
 */
export let BIN = join(BENCH_DIR, "xcsh-hooks");

/** Newest modification time of the files the executable is built from. */
function newestSource(): number {
	let newest = 0;
	const consider = (path: string) => {
		const stats = statSync(path, { throwIfNoEntry: false });
		if (stats && stats.mtimeMs > newest) newest = stats.mtimeMs;
	};
	for (const file of new Bun.Glob("src/**/*").scanSync({ cwd: ROOT })) consider(join(ROOT, file));
	for (const file of ["scripts/build.ts", "package.json", "bun.lock", "tsconfig.json"]) consider(join(ROOT, file));
	return newest;
}

/** Runs a command to completion; throws with its output when it fails. */
export async function run(argv: string[], cwd = ROOT, env?: Record<string, string>): Promise<string> {
	const proc = Bun.spawn(argv, { cwd, ...(env === undefined ? {} : { env }), stdout: "pipe", stderr: "pipe" });
	const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	if (code !== 0) throw new Error(`${argv.join(" ")} failed (exit ${code}):\n${out}${err}`);
	return out;
}

/**
 * Copies `from` to `to`, executable, written out and dropped from the page cache: every program a run
 * starts is such a copy, so that none of them starts slower or faster for how the kernel happened to
 * hold its pages (see {@link BIN}). The bundler's own output does not qualify: fresh `bun build
 * --compile` files of the same trivial program took 5.3, 6.0 and 6.5 ms in three runs (bun guard.ts
 * 1.47×, 1.33×, 1.18× of it); dropped from the cache, 1.28×, 1.29×, 1.35×.
 */
function writtenAfresh(from: string, to: string): void {
	copyFileSync(from, `${to}.tmp`);
	chmodSync(`${to}.tmp`, 0o755);
	const fd = openSync(`${to}.tmp`, "r");
	try {
		fsyncSync(fd); // written out, so that the cache can let go of it
	} finally {
		closeSync(fd);
	}
	renameSync(`${to}.tmp`, to);
	settle(to);
}

/**
 * Drops `path` from the page cache (GNU dd's fadvise; elsewhere a no-op) and reads it back whole, in
 * order: the state {@link writtenAfresh} leaves its copies in, for a program that is not copied (Bun
 * itself, Node, Python, whose rows are read beside ours). Read back through readahead, a file sits in
 * the cache in large pieces: the same trivial executable started in 6.2–7.0 ms as the machine had held
 * it for 40 minutes and in 4.0–4.2 ms once settled, and `bun guard.ts` moved from 1.26× to 1.10× of
 * the trivial one between two runs, only because Bun's binary was settled in between.
 */
export function settle(path: string): void {
	try {
		Bun.spawnSync(["dd", `if=${path}`, "iflag=nocache", "count=0", "status=none"], { stdout: "ignore", stderr: "ignore" });
	} catch {
		// no dd here: the program stays as the cache holds it
	}
	// In pieces, so that the bench's own heap (it times serve --http from here) never holds the file.
	let back: number;
	try {
		back = openSync(path, "r");
	} catch {
		return; // unreadable (a system interpreter): it is timed as it is
	}
	try {
		const piece = Buffer.allocUnsafe(1 << 20);
		while (readSync(back, piece, 0, piece.length, null) > 0);
	} finally {
		closeSync(back);
	}
}

let ensured: Promise<void> | undefined;

/** Builds `dist/xcsh-hooks` when it is missing or older than its sources; says which (once per run). */
export function ensureExecutable(report: Report): Promise<void> {
	ensured ??= (async () => {
		const built = existsSync(BUILT) ? statSync(BUILT).mtimeMs : 0;
		if (built >= newestSource()) await report.note(`${relative(ROOT, BUILT)} is up to date`);
		else {
			const start = performance.now();
			await run([process.execPath, "run", "build"]);
			await report.note(
				`${relative(ROOT, BUILT)} was ${built ? "older than its sources" : "missing"}: built with \`bun run build\` in ${((performance.now() - start) / 1000).toFixed(1)} s`,
			);
		}
		// Written afresh (see BIN), in a folder of this run that cleanup removes.
		BIN = join(tempDir("bin"), "xcsh-hooks");
		writtenAfresh(BUILT, BIN);
	})();
	return ensured;
}

const trivials = new Map<string, Promise<string>>();

/**
 * A one-line program compiled with `bun build --compile`: the floor any compiled Bun executable
 * starts from. `source` defaults to printing `ok`; built once per run and source.
 */
export function trivialExecutable(source = `console.log("ok");\n`): Promise<string> {
	let built = trivials.get(source);
	if (!built) {
		built = (async () => {
			const dir = tempDir("trivial");
			writeFiles(dir, { "trivial.ts": source });
			const out = join(dir, "trivial");
			await run([process.execPath, "build", "--compile", join(dir, "trivial.ts"), "--outfile", `${out}.built`], dir);
			writtenAfresh(`${out}.built`, out);
			return out;
		})();
		trivials.set(source, built);
	}
	return built;
}
