/**
 * Shared test helpers.
 *
 * Timeouts: a test (or hook) that starts processes or builds the executable passes `60_000` as the third
 * argument of `test()`, so it holds on a busy 2-core machine (Bun's default is 5 s, and Bun 1.4.5 ignores
 * `[test] timeout` in bunfig.toml). A number literal rather than a constant: the formatter keeps a test
 * call's head on one line only when its timeout is a literal.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temporary directory. */
export function tempDir(prefix = "xcsh-hooks-test-"): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes files (relative path → content) below `root`; paths ending in `.sh` or listed in `executable` get mode 755. */
export function writeFiles(root: string, files: Record<string, string>, executable: string[] = []): void {
	for (const [path, content] of Object.entries(files)) {
		const full = join(root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, content);
		if (path.endsWith(".sh") || executable.includes(path)) chmodSync(full, 0o755);
	}
}

/** Absolute path of a source module, for hook files that value-import the library from a temp dir. */
export const SRC = join(import.meta.dir, "..", "src");
