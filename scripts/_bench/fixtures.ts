import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "pathe";

/**
 * Where the bench's projects, homes and hooks live: `XCSH_BENCH_DIR`, else the repository's
 * `node_modules/.cache/xcsh-hooks-bench`. Not the system temp dir: Bun lists every directory from
 * `/` down to the working directory and to the first imported file once per process, and a
 * crowded `/tmp` (thousands of entries left by test runs) adds milliseconds to every cold start —
 * to the trivial executable too — which would measure the machine, not the program.
 */
export const BENCH_DIR = process.env.XCSH_BENCH_DIR || join(import.meta.dir, "..", "..", "node_modules", ".cache", "xcsh-hooks-bench");

/** Temporary directories that {@link cleanup} removes at the end of the run. */
const created: string[] = [];

/** A fresh temporary directory under {@link BENCH_DIR}, removed by {@link cleanup}. */
export function tempDir(prefix: string): string {
	mkdirSync(BENCH_DIR, { recursive: true });
	const dir = mkdtempSync(join(BENCH_DIR, `${prefix}-`));
	created.push(dir);
	return dir;
}

/** Entries in the system temp dir, for the note on why the bench does not work there. */
export function systemTempEntries(): number {
	try {
		return readdirSync(tmpdir()).length;
	} catch {
		return 0;
	}
}

/** Writes files (relative path → content) below `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
	for (const [path, content] of Object.entries(files)) {
		const full = join(root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, content);
	}
}

/** Removes every directory made by {@link tempDir}. */
export function cleanup(): void {
	for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
	try {
		if (readdirSync(BENCH_DIR).length === 0) rmSync(BENCH_DIR, { recursive: true, force: true });
	} catch {
		// Already gone.
	}
}

/** A typical guard hook: one `tool_call` handler that blocks one command, the `i`-th of a set. */
export function guardHook(i: number): string {
	return `export default function (pi) {
	pi.on("tool_call", async (event) => {
		if (event.toolName === "bash" && String(event.input.command ?? "").includes("rm -rf /guard-${i}"))
			return { block: true, reason: "guard ${i}: blocked" };
	});
}
`;
}

/** `count` guard hooks in `dir`, as `guard-<i>.ts`; resolves their paths. */
export function writeGuardHooks(dir: string, count: number): string[] {
	const files: Record<string, string> = {};
	for (let i = 1; i <= count; i++) files[`guard-${i}.ts`] = guardHook(i);
	writeFiles(dir, files);
	return Object.keys(files).map((name) => join(dir, name));
}
