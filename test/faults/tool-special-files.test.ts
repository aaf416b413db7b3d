/**
 * `run write` and `run edit` on something that is not a regular file — a FIFO, a character device,
 * or a symlink to one — fail with exit 1 naming the path, never hang, and leave it as it was.
 *
 * The character device is made with mknod inside the temp project (as root only), never /dev/null
 * itself: a tool that replaced its target by renaming a temp file over it would otherwise replace the
 * machine's /dev/null.
 */
import { describe, expect, test } from "bun:test";
import { lstatSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectCleanFailure } from "./_expect.ts";
import { fileKind, isRoot, mkfifo, privateHome, tempDir } from "./_fixtures.ts";

interface Target {
	name: string;
	/** Creates the target in `dir`; returns the path given to the tool and the special file behind it. */
	make(dir: string): { path: string; special: string };
	kind: string;
	rootOnly?: boolean;
}

function mknodNull(path: string): void {
	const result = Bun.spawnSync(["mknod", path, "c", "1", "3"], { env: process.env });
	if (result.exitCode !== 0) throw new Error(`mknod ${path} failed: ${result.stderr.toString()}`);
}

const TARGETS: Target[] = [
	{ name: "a FIFO", kind: "fifo", make: (dir) => (mkfifo(join(dir, "pipe")), { path: join(dir, "pipe"), special: join(dir, "pipe") }) },
	{
		name: "a symlink to a FIFO",
		kind: "fifo",
		make: (dir) => {
			mkfifo(join(dir, "pipe"));
			symlinkSync(join(dir, "pipe"), join(dir, "link"));
			return { path: join(dir, "link"), special: join(dir, "pipe") };
		},
	},
	{
		name: "a character device (like /dev/null)",
		kind: "character special file",
		rootOnly: true,
		make: (dir) => (mknodNull(join(dir, "null")), { path: join(dir, "null"), special: join(dir, "null") }),
	},
	{
		name: "a symlink to a character device (like /dev/null)",
		kind: "character special file",
		rootOnly: true,
		make: (dir) => {
			mknodNull(join(dir, "null"));
			symlinkSync(join(dir, "null"), join(dir, "link"));
			return { path: join(dir, "link"), special: join(dir, "null") };
		},
	},
];

const TOOLS = [
	{ tool: "write", input: (path: string) => ({ path, content: "x" }) },
	{ tool: "edit", input: (path: string) => ({ path, oldText: "a", newText: "b" }) },
];

function cells(cli: Cli): void {
	for (const target of TARGETS)
		for (const { tool, input } of TOOLS)
			test.skipIf(target.rootOnly === true && !isRoot).concurrent(
				`run ${tool} on ${target.name}: exit 1 naming the path, no hang, the file is left as it was`,
				async () => {
					const dir = tempDir("xcsh-faults-special-");
					const { path, special } = target.make(dir);
					const run = await runCli(cli, ["run", tool, "--input", JSON.stringify(input(path))], {
						cwd: dir,
						home: privateHome(),
						timeoutMs: 5000,
					});
					expectCleanFailure(run, 1);
					expect(run.stderr.includes(path) || run.stderr.includes(special)).toBe(true);
					expect(fileKind(special)).toBe(target.kind);
					if (path !== special) expect(lstatSync(path).isSymbolicLink()).toBe(true);
				},
				CELL_TIMEOUT_MS,
			);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
