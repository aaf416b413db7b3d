import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createWriteTool } from "../../src/tools/write.ts";
import { SRC, tempDir } from "../_helpers.ts";

describe("write tool", () => {
	test("creates parent directories and reports the bytes written", async () => {
		const dir = tempDir();
		const result = await createWriteTool(dir).execute("1", { path: "a/b/c.txt", content: "héllo\n" });
		const path = join(dir, "a/b/c.txt");
		expect(readFileSync(path, "utf8")).toBe("héllo\n");
		expect(result.details).toEqual({ path, bytes: 7 });
		expect(result.content).toEqual([{ type: "text", text: `Wrote 7 bytes to ${path}` }]);
	}, 60_000);

	test("overwrites atomically: no temporary file is left behind and the mode is kept", async () => {
		const dir = tempDir();
		const path = join(dir, "run.sh");
		writeFileSync(path, "old");
		chmodSync(path, 0o750);
		const tool = createWriteTool(dir);
		await Promise.all(Array.from({ length: 20 }, (_, i) => tool.execute(String(i), { path: "run.sh", content: `v${i}`.repeat(1000) })));
		expect(readdirSync(dir)).toEqual(["run.sh"]);
		expect(readFileSync(path, "utf8")).toMatch(/^(v\d+)\1{999}$/); // one whole version, never a mix
		expect(statSync(path).mode & 0o777).toBe(0o750);
	}, 60_000);

	test("writes through a symlink, keeping the link", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "real.txt"), "old");
		symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
		await createWriteTool(dir).execute("1", { path: "link.txt", content: "new" });
		expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("new");
		expect(readdirSync(dir).sort()).toEqual(["link.txt", "real.txt"]);
	}, 60_000);

	test("a directory target or an impossible parent is an error naming the path; nothing is left behind", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sub"));
		writeFileSync(join(dir, "file"), "x");
		const tool = createWriteTool(dir);
		await expect(tool.execute("1", { path: "sub", content: "x" })).rejects.toThrow(`${join(dir, "sub")} is a directory`);
		await expect(tool.execute("1", { path: "file/child.txt", content: "x" })).rejects.toThrow(join(dir, "file"));
		expect(readdirSync(dir).sort()).toEqual(["file", "sub"]);
		expect(readdirSync(join(dir, "sub"))).toEqual([]);
	}, 60_000);

	test("invalid input is rejected naming the field and writes nothing", async () => {
		const dir = tempDir();
		const tool = createWriteTool(dir);
		await expect(tool.execute("1", { path: "a.txt" } as never)).rejects.toThrow("write input.content: expected required property");
		await expect(tool.execute("1", { path: 3, content: "" } as never)).rejects.toThrow("write input.path: expected string (got 3)");
		expect(readdirSync(dir)).toEqual([]);
	}, 60_000);

	test("a process killed mid-write leaves the old file or the new one, never a mix", async () => {
		const dir = tempDir();
		const path = join(dir, "big.txt");
		writeFileSync(path, "old");
		const size = 64 * 1024 * 1024;
		const script = `import { createWriteTool } from ${JSON.stringify(join(SRC, "tools/write.ts"))};
			await createWriteTool(${JSON.stringify(dir)}).execute("1", { path: "big.txt", content: "n".repeat(${size}) });`;
		const child = Bun.spawn([process.execPath, "-e", script], { env: process.env, stdout: "ignore", stderr: "ignore" });
		const deadline = performance.now() + 10_000;
		// Kill as soon as the write has visibly started (temp file present) or the target changed.
		while (performance.now() < deadline && readdirSync(dir).length === 1 && statSync(path).size === 3) await Bun.sleep(1);
		child.kill("SIGKILL");
		await child.exited;
		const after = statSync(path).size;
		expect(after === 3 ? readFileSync(path, "utf8") : after).toBe(after === 3 ? "old" : size);
	}, 60_000);
});
