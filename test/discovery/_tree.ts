import { afterEach, beforeEach } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "pathe";

/** A fresh real temp directory (realpath'd, so paths compare equal on macOS too). */
export function tempDir(prefix = "xcsh-test-"): string {
	return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string>): void {
	for (const [rel, content] of Object.entries(files)) {
		const path = join(root, rel);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, content);
	}
}

/** Gives every test of the calling file its own HOME and project dir; returns live getters. */
export function useTempHomeAndProject(): { home: () => string; project: () => string } {
	let home = "";
	let project = "";
	let previous: string | undefined;
	beforeEach(() => {
		previous = process.env.HOME;
		home = tempDir("xcsh-home-");
		project = tempDir("xcsh-project-");
		process.env.HOME = home;
	});
	afterEach(() => {
		process.env.HOME = previous;
		for (const dir of [home, project]) rmSync(dir, { recursive: true, force: true });
	});
	return { home: () => home, project: () => project };
}

/** Root can read a chmod 000 directory, so permission tests only mean something for other users. */
export const isRoot = process.getuid?.() === 0;
