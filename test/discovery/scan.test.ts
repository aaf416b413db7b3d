import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "pathe";
import { fileStem, scanDir } from "../../src/discovery/_scan.ts";
import { isRoot, useTempHomeAndProject, writeTree } from "./_tree.ts";

const names = (result: { items: { name: string }[] }) => result.items.map((f) => f.name);

describe("scanDir", () => {
	const { project } = useTempHomeAndProject();

	test("a missing directory is silently empty", async () => {
		expect(await scanDir(join(project(), "nope"))).toEqual({ items: [], warnings: [] });
	}, 60_000);

	test("returns files sorted by code unit, with absolute paths", async () => {
		writeTree(project(), { "b.sh": "", "B.sh": "", "a.sh": "", "_z.sh": "", "*.sh": "", "10.sh": "", "9.sh": "" });
		const result = await scanDir(project());
		expect(names(result)).toEqual(["*.sh", "10.sh", "9.sh", "B.sh", "_z.sh", "a.sh", "b.sh"]);
		expect(result.items[0]?.path).toBe(join(project(), "*.sh"));
		expect(result.warnings).toEqual([]);
	}, 60_000);

	test("skips hidden files, tests, type declarations and directories", async () => {
		writeTree(project(), {
			".hidden.sh": "",
			"guard.test.ts": "",
			"guard.test.js": "",
			"types.d.ts": "",
			"subdir/inner.sh": "",
			"keep.ts": "",
		});
		expect(names(await scanDir(project()))).toEqual(["keep.ts"]);
	}, 60_000);

	test("a pattern limits the extensions", async () => {
		writeTree(project(), { "a.ts": "", "b.js": "", "c.mjs": "", "d.sh": "", "e.json": "" });
		expect(names(await scanDir(project(), "*.{ts,js}"))).toEqual(["a.ts", "b.js"]);
	}, 60_000);

	test("follows symlinked files; a symlinked directory is skipped quietly", async () => {
		const elsewhere = join(project(), "elsewhere");
		writeTree(elsewhere, { "real.sh": "echo", "dir/x.sh": "" });
		mkdirSync(join(project(), "pre"));
		symlinkSync(join(elsewhere, "real.sh"), join(project(), "pre", "linked.sh"));
		symlinkSync(join(elsewhere, "dir"), join(project(), "pre", "dirlink"));
		const result = await scanDir(join(project(), "pre"));
		expect(result).toEqual({ items: [{ name: "linked.sh", path: join(project(), "pre", "linked.sh") }], warnings: [] });
	}, 60_000);

	test("dangling symlinks and symlink loops are warnings naming the path, not crashes or hangs", async () => {
		const dir = join(project(), "pre");
		writeTree(dir, { "ok.sh": "" });
		symlinkSync(join(dir, "missing-target"), join(dir, "dangling.sh"));
		symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
		symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));
		symlinkSync(".", join(dir, "self")); // a directory loop: must not be descended
		const result = await scanDir(dir);
		expect(names(result)).toEqual(["ok.sh"]);
		expect(result.warnings.sort()).toEqual([
			`${join(dir, "dangling.sh")}: dangling symlink, skipped`,
			`${join(dir, "loop-a")}: symlink loop, skipped`,
			`${join(dir, "loop-b")}: symlink loop, skipped`,
		]);
	}, 60_000);

	test("the scanned directory itself being a dangling link, a loop or a file is a warning", async () => {
		symlinkSync(join(project(), "gone"), join(project(), "pre"));
		symlinkSync(join(project(), "post"), join(project(), "post"));
		writeTree(project(), { hooks: "not a dir" });
		expect((await scanDir(join(project(), "pre"))).warnings).toEqual([`${join(project(), "pre")}: dangling symlink, skipped`]);
		expect((await scanDir(join(project(), "post"))).warnings).toEqual([`${join(project(), "post")}: symlink loop, skipped`]);
		expect((await scanDir(join(project(), "hooks"))).warnings).toEqual([`${join(project(), "hooks")}: not a directory, skipped`]);
	}, 60_000);

	test("an unreadable directory is a warning naming it", async () => {
		const dir = join(project(), "locked");
		writeTree(dir, { "a.sh": "" });
		chmodSync(dir, 0o000);
		try {
			if (isRoot) {
				// root reads through chmod 000: the scan must simply succeed.
				expect(names(await scanDir(dir))).toEqual(["a.sh"]);
				return;
			}
			expect(await scanDir(dir)).toEqual({ items: [], warnings: [`${dir}: permission denied, skipped`] });
		} finally {
			chmodSync(dir, 0o755);
		}
	}, 60_000);

	test("an unreadable directory, scanned by an unprivileged user (when running as root)", async () => {
		const setpriv = Bun.which("setpriv");
		if (!isRoot || !setpriv) return;
		// The unprivileged user may not be able to reach the checkout or this run's temp dirs (a 0700
		// mktemp -d): what it needs — the scanner bundled into one file, and the tree to scan — goes
		// into a world-traversable directory of its own under /tmp.
		const shared = realpathSync(mkdtempSync(join(existsSync("/tmp") ? "/tmp" : tmpdir(), "xcsh-scan-unprivileged-")));
		chmodSync(shared, 0o755);
		const open = join(shared, "tree", "open");
		const locked = join(shared, "tree", "locked");
		try {
			writeTree(shared, {
				"entry.ts": `import { scanDir } from ${JSON.stringify(join(import.meta.dir, "../../src/discovery/_scan.ts"))};
console.log(JSON.stringify(await Promise.all(process.argv.slice(2).map((dir) => scanDir(dir)))));
`,
				"tree/open/a.sh": "",
				"tree/locked/a.sh": "",
			});
			const built = await Bun.build({ entrypoints: [join(shared, "entry.ts")], outdir: shared, naming: "scan.js", target: "bun" });
			expect(built.success).toBe(true);
			chmodSync(locked, 0o000);
			const child = Bun.spawnSync(
				[setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, join(shared, "scan.js"), open, locked],
				{
					cwd: shared,
					env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: shared, TMPDIR: shared, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" },
					timeout: 10_000,
				},
			);
			expect(child.stderr.toString()).toBe("");
			// The open sibling proves the unprivileged process reached the tree: the warning is about `locked` itself.
			expect(JSON.parse(child.stdout.toString())).toEqual([
				{ items: [{ name: "a.sh", path: join(open, "a.sh") }], warnings: [] },
				{ items: [], warnings: [`${locked}: permission denied, skipped`] },
			]);
		} finally {
			if (existsSync(locked)) chmodSync(locked, 0o755);
			rmSync(shared, { recursive: true, force: true });
		}
	}, 60_000);
});

describe("fileStem", () => {
	test("drops only the last extension", () => {
		expect(fileStem("bash.sh")).toBe("bash");
		expect(fileStem("a.b.ts")).toBe("a.b");
		expect(fileStem("*.sh")).toBe("*");
		expect(fileStem("*")).toBe("*");
		expect(fileStem("Makefile")).toBe("Makefile");
	}, 60_000);
});
