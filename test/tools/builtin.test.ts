import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import { BUILTIN_TOOL_NAMES, createBuiltinTools, isBuiltinToolName, validateToolInput } from "../../src/tools/index.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

describe("createBuiltinTools", () => {
	test("returns the four tools by name, each with a TypeBox object schema", () => {
		const tools = createBuiltinTools(tempDir());
		expect(Object.keys(tools)).toEqual([...BUILTIN_TOOL_NAMES]);
		for (const name of BUILTIN_TOOL_NAMES) {
			expect(tools[name].name).toBe(name);
			expect(tools[name].parameters.type).toBe("object");
		}
		expect(isBuiltinToolName("edit")).toBe(true);
		expect(isBuiltinToolName("grep")).toBe(false);
	}, 60_000);

	test("the tools share the cwd: write, edit, read and bash see the same file", async () => {
		const dir = tempDir();
		const tools = createBuiltinTools(dir);
		await tools.write.execute("1", { path: "notes.md", content: "hello world\n" });
		await tools.edit.execute("2", { path: "notes.md", oldText: "world", newText: "hooks" });
		expect((await tools.read.execute("3", { path: "notes.md" })).content).toEqual([{ type: "text", text: "hello hooks\n" }]);
		expect((await tools.bash.execute("4", { command: "cat notes.md" })).content).toEqual([{ type: "text", text: "hello hooks\n" }]);
	}, 60_000);

	test("options.bash.timeoutMs sets the bash default timeout", async () => {
		const tools = createBuiltinTools(tempDir(), { bash: { timeoutMs: 100 } });
		await expect(tools.bash.execute("1", { command: "exec sleep 5" })).rejects.toThrow("timed out after 0.1 s");
	}, 60_000);

	test("work through HookToolWrapper: a hook blocks a command, the tool never runs", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"guard.ts": `export default (pi) => pi.on("tool_call", (e) => e.toolName === "write" ? { block: true, reason: "no writes" } : undefined);`,
		});
		const { hooks } = await loadHooks(["guard.ts"], dir);
		const runner = new HookRunner(hooks, dir);
		const tools = createBuiltinTools(dir);
		const write = new HookToolWrapper(tools.write, runner);
		await expect(write.execute("1", { path: "x.txt", content: "x" })).rejects.toThrow("no writes");
		expect(() => readFileSync(join(dir, "x.txt"))).toThrow();
	}, 60_000);
});

describe("validateToolInput", () => {
	const tools = createBuiltinTools(tempDir());

	test("accepts valid input and returns it", () => {
		expect(validateToolInput(tools.bash, { command: "ls", timeout: 5 })).toEqual({ ok: true, value: { command: "ls", timeout: 5 } });
	}, 60_000);

	test("names the tool and the field", () => {
		expect(validateToolInput(tools.bash, { command: 1 })).toEqual({ ok: false, errors: ["bash input.command: expected string (got 1)"] });
		const read = validateToolInput(tools.read, { path: 1, offset: 0 });
		expect(read.ok).toBe(false);
		if (!read.ok)
			expect(read.errors).toEqual([
				"read input.path: expected string (got 1)",
				"read input.offset: expected integer to be greater or equal to 1 (got 0)",
			]);
	}, 60_000);

	test("non-objects are rejected with what was given", () => {
		expect(validateToolInput(tools.edit, "ls")).toEqual({ ok: false, errors: ["edit input: expected an object (got string)"] });
		expect(validateToolInput(tools.edit, null)).toEqual({ ok: false, errors: ["edit input: expected an object (got null)"] });
		expect(validateToolInput(tools.edit, [])).toEqual({ ok: false, errors: ["edit input: expected an object (got an array)"] });
	}, 60_000);
});
