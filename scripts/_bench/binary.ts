/** The executables the bench starts: `dist/xcsh-hooks` (built when stale) and a trivial compiled program. */
import { existsSync, statSync } from "node:fs";
import { join, relative } from "pathe";
import { tempDir, writeFiles } from "./fixtures.ts";
import type { Report } from "./report.ts";

/** The repository root. */
export const ROOT = join(import.meta.dir, "..", "..");
/** The executable under test. */
export const BIN = join(ROOT, "dist", "xcsh-hooks");

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

let ensured: Promise<void> | undefined;

/** Builds `dist/xcsh-hooks` when it is missing or older than its sources; says which (once per run). */
export function ensureExecutable(report: Report): Promise<void> {
	ensured ??= (async () => {
		const built = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
		if (built >= newestSource()) {
			await report.note(`${relative(ROOT, BIN)} is up to date`);
			return;
		}
		const start = performance.now();
		await run([process.execPath, "run", "build"]);
		await report.note(
			`${relative(ROOT, BIN)} was ${built ? "older than its sources" : "missing"}: built with \`bun run build\` in ${((performance.now() - start) / 1000).toFixed(1)} s`,
		);
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
			await run([process.execPath, "build", "--compile", join(dir, "trivial.ts"), "--outfile", out], dir);
			return out;
		})();
		trivials.set(source, built);
	}
	return built;
}
