import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "pathe";
import { fileStem, scanDir } from "../../src/discovery/_scan.ts";
import { isRoot, useTempHomeAndProject, writeTree } from "./_tree.ts";

const names = (result: { items: { name: string }[] }) => result.items.map((f) => f.name);

describe("scanDir", () => {
	const { project } = useTempHomeAndProject();

	test("a missing directory is silently empty", async () => {
		expect(await scanDir(join(project(), "nope"))).toEqual({ items: [], warnings: [] });
	});

	test("returns files sorted by code unit, with absolute paths", async () => {
		writeTree(project(), { "b.sh": "", "B.sh": "", "a.sh": "", "_z.sh": "", "*.sh": "", "10.sh": "", "9.sh": "" });
		const result = await scanDir(project());
		expect(names(result)).toEqual(["*.sh", "10.sh", "9.sh", "B.sh", "_z.sh", "a.sh", "b.sh"]);
		expect(result.items[0]?.path).toBe(join(project(), "*.sh"));
		expect(result.warnings).toEqual([]);
	});

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
	});

	test("a pattern limits the extensions", async () => {
		writeTree(project(), { "a.ts": "", "b.js": "", "c.mjs": "", "d.sh": "", "e.json": "" });
		expect(names(await scanDir(project(), "*.{ts,js}"))).toEqual(["a.ts", "b.js"]);
	});

	test("follows symlinked files; a symlinked directory is skipped quietly", async () => {
		const elsewhere = join(project(), "elsewhere");
		writeTree(elsewhere, { "real.sh": "echo", "dir/x.sh": "" });
		mkdirSync(join(project(), "pre"));
		symlinkSync(join(elsewhere, "real.sh"), join(project(), "pre", "linked.sh"));
		symlinkSync(join(elsewhere, "dir"), join(project(), "pre", "dirlink"));
		const result = await scanDir(join(project(), "pre"));
		expect(result).toEqual({ items: [{ name: "linked.sh", path: join(project(), "pre", "linked.sh") }], warnings: [] });
	});

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
	});

	test("the scanned directory itself being a dangling link, a loop or a file is a warning", async () => {
		symlinkSync(join(project(), "gone"), join(project(), "pre"));
		symlinkSync(join(project(), "post"), join(project(), "post"));
		writeTree(project(), { hooks: "not a dir" });
		expect((await scanDir(join(project(), "pre"))).warnings).toEqual([`${join(project(), "pre")}: dangling symlink, skipped`]);
		expect((await scanDir(join(project(), "post"))).warnings).toEqual([`${join(project(), "post")}: symlink loop, skipped`]);
		expect((await scanDir(join(project(), "hooks"))).warnings).toEqual([`${join(project(), "hooks")}: not a directory, skipped`]);
	});

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
	});

	test("an unreadable directory, scanned by an unprivileged user (when running as root)", async () => {
		const setpriv = Bun.which("setpriv");
		if (!isRoot || !setpriv) return;
		const dir = join(project(), "locked");
		writeTree(dir, { "a.sh": "" });
		chmodSync(project(), 0o755);
		chmodSync(dir, 0o000);
		const script = `import { scanDir } from ${JSON.stringify(join(import.meta.dir, "../../src/discovery/_scan.ts"))};
			console.log(JSON.stringify(await scanDir(${JSON.stringify(dir)})));`;
		const child = Bun.spawnSync(
			[setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", script],
			{ cwd: project(), env: { ...process.env, HOME: project() } },
		);
		chmodSync(dir, 0o755);
		expect(child.stderr.toString()).toBe("");
		expect(JSON.parse(child.stdout.toString())).toEqual({ items: [], warnings: [`${dir}: permission denied, skipped`] });
	});

	test("1,000 files scan quickly", async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 1000; i++) files[`hook-${String(i).padStart(4, "0")}.sh`] = "";
		writeTree(project(), files);
		const t0 = performance.now();
		const result = await scanDir(project());
		expect(result.items).toHaveLength(1000);
		expect(result.items[999]?.name).toBe("hook-0999.sh");
		expect(performance.now() - t0).toBeLessThan(500);
	});
});

describe("fileStem", () => {
	test("drops only the last extension", () => {
		expect(fileStem("bash.sh")).toBe("bash");
		expect(fileStem("a.b.ts")).toBe("a.b");
		expect(fileStem("*.sh")).toBe("*");
		expect(fileStem("*")).toBe("*");
		expect(fileStem("Makefile")).toBe("Makefile");
	});
});
