import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, AgentToolResult, HookError } from "../../src/hooks/types.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

/** A real tool with an observable side effect: it counts its runs and records what it got. */
function counterTool(behaviour: "ok" | "fail" = "ok") {
	const runs: Array<{ params: Record<string, unknown>; signal?: AbortSignal | undefined }> = [];
	const tool: AgentTool = {
		name: "bash",
		label: "Bash",
		description: "runs a command",
		parameters: Type.Object({ command: Type.String() }),
		async execute(_id, params, signal, onUpdate) {
			runs.push({ params, signal });
			onUpdate?.({ content: [{ type: "text", text: "partial" }] });
			if (behaviour === "fail") throw new Error("tool exploded");
			return { content: [{ type: "text", text: `ran ${params.command}` }], details: { exitCode: 0 } };
		},
	};
	return { tool, runs };
}

/** A runner over hook files written to a temp dir. */
async function runnerOf(files: Record<string, string>): Promise<HookRunner> {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir);
	expect(errors).toEqual([]);
	return new HookRunner(hooks, dir);
}

async function wrap(files: Record<string, string>, behaviour: "ok" | "fail" = "ok") {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir);
	expect(errors).toEqual([]);
	const runner = new HookRunner(hooks, dir);
	const reported: HookError[] = [];
	runner.onError((e) => reported.push(e));
	const { tool, runs } = counterTool(behaviour);
	return { wrapper: new HookToolWrapper(tool, runner), runs, reported, tool };
}

describe("HookToolWrapper", () => {
	test("exposes the tool's name, label, description and parameters", async () => {
		const { wrapper, tool } = await wrap({ "a.ts": `export default () => {};` });
		expect([wrapper.name, wrapper.label, wrapper.description, wrapper.parameters]).toEqual([
			tool.name,
			tool.label,
			tool.description,
			tool.parameters,
		]);
	});

	test("a block throws the hook's reason and the tool never runs", async () => {
		const { wrapper, runs } = await wrap({
			"guard.ts": `export default (pi) => pi.on("tool_call", (e) =>
				String(e.input.command ?? "").includes("rm -rf") ? { block: true, reason: "blocked by policy" } : undefined);`,
		});
		await expect(wrapper.execute("1", { command: "rm -rf /" })).rejects.toThrow("blocked by policy");
		expect(runs).toHaveLength(0);
		expect((await wrapper.execute("2", { command: "ls" })).content).toEqual([{ type: "text", text: "ran ls" }]);
		expect(runs).toHaveLength(1);
	});

	test("a block without a reason uses the default message", async () => {
		const { wrapper, runs } = await wrap({ "a.ts": `export default (pi) => pi.on("tool_call", () => ({ block: true }));` });
		await expect(wrapper.execute("1", { command: "ls" })).rejects.toThrow("Tool execution was blocked by a hook");
		expect(runs).toHaveLength(0);
	});

	test("a throwing tool_call handler blocks (fail closed) with its own error", async () => {
		const { wrapper, runs, reported } = await wrap({
			"a.ts": `export default (pi) => pi.on("tool_call", async () => { throw new Error("guard crashed"); });`,
		});
		await expect(wrapper.execute("1", { command: "ls" })).rejects.toThrow("guard crashed");
		expect(runs).toHaveLength(0);
		expect(reported).toEqual([]);
	});

	test("a non-Error thrown by a handler becomes 'Hook failed, blocking execution: <value>'", async () => {
		const { wrapper, runs } = await wrap({ "a.ts": `export default (pi) => pi.on("tool_call", () => { throw 42; });` });
		await expect(wrapper.execute("1", { command: "ls" })).rejects.toThrow("Hook failed, blocking execution: 42");
		expect(runs).toHaveLength(0);
	});

	test("tool_result overrides replace content and/or details, falling back to the originals", async () => {
		const { wrapper } = await wrap({
			"redact.ts": `export default (pi) => pi.on("tool_result", (e) => {
				if (e.isError) return;
				return { content: e.content.map((c) => ({ ...c, text: c.text.replace("ls", "[redacted]") })), isError: true };
			});`,
		});
		const result = await wrapper.execute("1", { command: "ls" });
		expect(result).toEqual({ content: [{ type: "text", text: "ran [redacted]" }], details: { exitCode: 0 } });
	});

	test("tool_result sees the input, content, details and isError false", async () => {
		const { wrapper } = await wrap({
			"a.ts": `export default (pi) => pi.on("tool_result", (e) => ({ details: { seen: e } }));`,
		});
		const result = await wrapper.execute("call-7", { command: "pwd" });
		expect(result.content).toEqual([{ type: "text", text: "ran pwd" }]);
		expect(result.details).toEqual({
			seen: {
				type: "tool_result",
				toolName: "bash",
				toolCallId: "call-7",
				input: { command: "pwd" },
				content: [{ type: "text", text: "ran pwd" }],
				details: { exitCode: 0 },
				isError: false,
			},
		});
	});

	test("a failing tool emits tool_result with isError true, then rethrows the original error", async () => {
		const { wrapper, runs } = await wrap(
			{
				"a.ts": `export default (pi) => pi.on("tool_result", (e) => { globalThis.__seenFailure = e; return { content: [] }; });`,
			},
			"fail",
		);
		const thrown = await wrapper.execute("9", { command: "x" }).catch((e: unknown) => e);
		expect(thrown).toBeInstanceOf(Error);
		expect((thrown as Error).message).toBe("tool exploded");
		expect(runs).toHaveLength(1);
		expect((globalThis as Record<string, unknown>).__seenFailure).toEqual({
			type: "tool_result",
			toolName: "bash",
			toolCallId: "9",
			input: { command: "x" },
			content: [{ type: "text", text: "tool exploded" }],
			details: undefined,
			isError: true,
		});
	});

	test("signal and onUpdate are forwarded to the tool", async () => {
		const { wrapper, runs } = await wrap({ "a.ts": `export default (pi) => pi.on("tool_call", () => undefined);` });
		const controller = new AbortController();
		const updates: AgentToolResult[] = [];
		await wrapper.execute("1", { command: "ls" }, controller.signal, (u) => updates.push(u));
		expect(runs[0]?.signal).toBe(controller.signal);
		expect(updates).toEqual([{ content: [{ type: "text", text: "partial" }] }]);
	});

	test("tool_result handlers are looked up once the tool has finished: one registered while it runs still applies", async () => {
		const runner = await runnerOf({
			"a.ts": `export default (pi) => {
				globalThis.__lateOn = () => pi.on("tool_result", () => ({ content: [{ type: "text", text: "rewritten" }] }));
			};`,
		});
		const slowTool: AgentTool = {
			...counterTool().tool,
			execute: () => new Promise((resolve) => setTimeout(() => resolve({ content: [{ type: "text", text: "raw" }] }), 10)),
		};
		const pending = new HookToolWrapper(slowTool, runner).execute("1", { command: "ls" });
		((globalThis as Record<string, unknown>).__lateOn as () => void)();
		expect((await pending).content).toEqual([{ type: "text", text: "rewritten" }]);
	});

	test("a tool that throws synchronously fails like an async one: tool_result sees it, the error is rethrown", async () => {
		const hooked = await runnerOf({
			"a.ts": `export default (pi) => pi.on("tool_result", (e) => { globalThis.__syncFailure = e.content; });`,
		});
		const throwing: AgentTool = {
			...counterTool().tool,
			execute: () => {
				throw new Error("sync boom");
			},
		};
		for (const runner of [hooked, new HookRunner([], "/")]) {
			const result = new HookToolWrapper(throwing, runner).execute("1", { command: "ls" });
			expect(result).toBeInstanceOf(Promise);
			await expect(result).rejects.toThrow("sync boom");
		}
		expect((globalThis as Record<string, unknown>).__syncFailure).toEqual([{ type: "text", text: "sync boom" }]);
	});

	test("with no handlers the tool's result passes through untouched", async () => {
		const { wrapper } = await wrap({ "a.ts": `export default () => {};` });
		expect(await wrapper.execute("1", { command: "ls" })).toEqual({
			content: [{ type: "text", text: "ran ls" }],
			details: { exitCode: 0 },
		});
	});
});
