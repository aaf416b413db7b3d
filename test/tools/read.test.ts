import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createReadTool, READ_MAX_BYTES, READ_MAX_LINES } from "../../src/tools/read.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? "").join("");

describe("read tool", () => {
	test("returns the file verbatim, relative to cwd, with details", async () => {
		const dir = tempDir();
		writeFiles(dir, { "src/a.txt": "one\n  two\r\nthree\n" });
		const result = await createReadTool(dir).execute("1", { path: "src/a.txt" });
		expect(text(result)).toBe("one\n  two\r\nthree\n");
		expect(result.details).toEqual({ path: join(dir, "src/a.txt"), offset: 1, lines: 3, totalLines: 3, truncated: false });
	});

	test("absolute paths and ~ are honoured", async () => {
		const dir = tempDir();
		writeFiles(dir, { "abs.txt": "abs" });
		writeFiles(process.env.HOME as string, { "notes.txt": "home" });
		const tool = createReadTool(tempDir());
		expect(text(await tool.execute("1", { path: join(dir, "abs.txt") }))).toBe("abs");
		expect(text(await tool.execute("1", { path: "~/notes.txt" }))).toBe("home");
	});

	test("offset and limit select lines and say how to continue", async () => {
		const dir = tempDir();
		writeFiles(dir, { "f.txt": "1\n2\n3\n4\n5\n" });
		const tool = createReadTool(dir);
		const middle = await tool.execute("1", { path: "f.txt", offset: 2, limit: 2 });
		expect(text(middle)).toBe("2\n3\n\n[Showing lines 2-3 of 5. Use offset=4 to continue.]");
		expect(middle.details).toMatchObject({ offset: 2, lines: 2, totalLines: 5, truncated: false });
		expect(text(await tool.execute("1", { path: "f.txt", offset: 4 }))).toBe("4\n5\n");
		expect(text(await tool.execute("1", { path: "f.txt", offset: 5, limit: 10 }))).toBe("5\n");
	});

	test("an offset past the end is an error naming it and the path", async () => {
		const dir = tempDir();
		writeFiles(dir, { "f.txt": "1\n2\n" });
		await expect(createReadTool(dir).execute("1", { path: "f.txt", offset: 3 })).rejects.toThrow(
			`offset 3 is past the end of ${join(dir, "f.txt")} (2 lines)`,
		);
	});

	test("an empty file reads as empty text", async () => {
		const dir = tempDir();
		writeFiles(dir, { "empty.txt": "" });
		const result = await createReadTool(dir).execute("1", { path: "empty.txt" });
		expect(text(result)).toBe("");
		expect(result.details).toMatchObject({ lines: 0, totalLines: 0, truncated: false });
	});

	test("more lines than the cap are truncated with a note", async () => {
		const dir = tempDir();
		writeFiles(dir, { "many.txt": Array.from({ length: READ_MAX_LINES + 10 }, (_, i) => `line ${i + 1}`).join("\n") });
		const result = await createReadTool(dir).execute("1", { path: "many.txt" });
		expect(text(result)).toEndWith(
			`line ${READ_MAX_LINES}\n\n[Showing lines 1-${READ_MAX_LINES} of ${READ_MAX_LINES + 10}. Use offset=${READ_MAX_LINES + 1} to continue.]`,
		);
		expect(result.details).toMatchObject({ lines: READ_MAX_LINES, truncated: true });
	});

	test("more bytes than the cap are truncated on a line boundary", async () => {
		const dir = tempDir();
		const line = "x".repeat(999);
		writeFiles(dir, { "wide.txt": `${Array.from({ length: 100 }, () => line).join("\n")}\n` });
		const result = await createReadTool(dir).execute("1", { path: "wide.txt" });
		const shown = Math.floor(READ_MAX_BYTES / 1000);
		expect(text(result)).toEndWith(`${line}\n\n[Showing lines 1-${shown} of 100. Use offset=${shown + 1} to continue.]`);
		expect(result.details).toMatchObject({ lines: shown, truncated: true });
	});

	test("a single huge line is cut with a note", async () => {
		const dir = tempDir();
		writeFiles(dir, { "min.js": "é".repeat(READ_MAX_BYTES) });
		const out = text(await createReadTool(dir).execute("1", { path: "min.js" }));
		expect(out).toContain("[Line 1 is 100 KB; showing its first 50 KB.");
		expect(out).not.toContain("\uFFFD");
	});

	test("missing files, directories and binary files are errors naming the path", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sub"));
		writeFileSync(join(dir, "bin.dat"), new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
		const tool = createReadTool(dir);
		await expect(tool.execute("1", { path: "nope.txt" })).rejects.toThrow(`File not found: ${join(dir, "nope.txt")}`);
		await expect(tool.execute("1", { path: "sub" })).rejects.toThrow(`${join(dir, "sub")} is a directory`);
		await expect(tool.execute("1", { path: "bin.dat" })).rejects.toThrow(`${join(dir, "bin.dat")} looks like a binary file`);
	});

	test("invalid input is rejected naming the field", async () => {
		const tool = createReadTool(tempDir());
		await expect(tool.execute("1", {} as never)).rejects.toThrow("read input.path: expected required property");
		await expect(tool.execute("1", { path: "a", offset: 0 })).rejects.toThrow("read input.offset");
		await expect(tool.execute("1", { path: "a", limit: 1.5 })).rejects.toThrow("read input.limit: expected integer");
	});
});
