/** `tool_call`'s third answer, `{ask: true, reason}`: combining, the wrapper, `emit` and the harness (docs/ask.md). */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { validateResult } from "../../src/hooks/validate.ts";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper, ToolBlockedError } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, HookFactory, ToolCallEvent } from "../../src/hooks/types.ts";
import type { HookUIContext } from "../../src/ui/types.ts";
import { createNoOpUIContext } from "../../src/ui/no-op.ts";
import { createHookHarness } from "../../src/testing/harness.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const call: ToolCallEvent = { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "git push --force" } };

const ASKS = `export default (pi) => pi.on("tool_call", () => ({ ask: true, reason: "ASK-ONE" }));\n`;
const ASKS_TWO = `export default (pi) => pi.on("tool_call", () => ({ ask: true, reason: "ASK-TWO" }));\n`;
const ALLOWS = `export default (pi) => pi.on("tool_call", () => ({ reason: "ALLOW" }));\n`;
const BLOCKS = `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "BLOCK" }));\n`;
const REWRITES = `export default (pi) => pi.on("tool_call", (e) => ({ input: { ...e.input, command: "echo REWRITTEN" } }));\n`;
const RECORDS = `export default (pi) => pi.on("tool_call", (e) => { globalThis.__seen = e.input.command; });\n`;

async function runnerOf(files: Record<string, string>) {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir);
	expect(errors).toEqual([]);
	return new HookRunner(hooks, dir);
}

describe("the result", () => {
	test("`ask` is a typed, validated field of a tool_call result", () => {
		expect(validateResult("tool_call", { ask: true, reason: "why" }).ok).toBe(true);
		const wrong = validateResult("tool_call", { ask: "yes" });
		expect(wrong.ok).toBe(false);
		if (!wrong.ok) expect(wrong.errors.join(" ")).toContain("ask");
	});
});

describe("combining: block beats ask beats allow", () => {
	test("an ask survives the allows after it, and keeps its own reason", async () => {
		const runner = await runnerOf({ "a.ts": ASKS, "b.ts": ALLOWS });
		expect(await runner.emitToolCall(call)).toEqual({ ask: true, reason: "ASK-ONE" });
		expect((await runner.decideToolCall(call)) as unknown).toMatchObject({ hookPath: "a.ts" });
	});

	test("an allow before an ask does not undo it; the first ask is the one reported", async () => {
		const runner = await runnerOf({ "b.ts": ALLOWS, "a.ts": ASKS, "c.ts": ASKS_TWO });
		expect(await runner.emitToolCall(call)).toEqual({ ask: true, reason: "ASK-ONE" });
	});

	test("a block after an ask wins; the first block still returns at once", async () => {
		globalThis.__seen = undefined;
		const runner = await runnerOf({ "a.ts": ASKS, "b.ts": BLOCKS, "c.ts": RECORDS });
		expect(await runner.emitToolCall(call)).toEqual({ block: true, reason: "BLOCK" });
		expect(globalThis.__seen).toBeUndefined();
	});

	test("input rewrites still chain through an ask, and the ask carries the final input", async () => {
		const runner = await runnerOf({ "a.ts": ASKS, "b.ts": REWRITES });
		expect(await runner.emitToolCall(call)).toEqual({ ask: true, reason: "ASK-ONE", input: { command: "echo REWRITTEN" } });
	});

	test("`emit` resolves the same ask", async () => {
		const runner = await runnerOf({ "a.ts": ASKS, "b.ts": ALLOWS });
		expect(await runner.emit(call)).toEqual({ ask: true, reason: "ASK-ONE" });
	});
});

declare global {
	var __seen: unknown;
}

/** A tool that records whether it ran. */
function bashTool(ran: string[]): AgentTool {
	return {
		name: "bash",
		label: "bash",
		description: "records its command",
		parameters: Type.Object({ command: Type.String() }),
		execute: async (_id, params) => {
			ran.push(String(params.command));
			return { content: [{ type: "text", text: "ran" }], details: undefined };
		},
	};
}

function withUI(runner: HookRunner, answer: boolean | "throws" | undefined, asked: string[][]) {
	const ui: HookUIContext = {
		...createNoOpUIContext(),
		confirm: async (title, message) => {
			asked.push([title, message]);
			if (answer === "throws") throw new Error("terminal gone");
			return answer === true;
		},
	};
	runner.initialize({
		getModel: () => undefined,
		sendMessageHandler: () => {},
		appendEntryHandler: () => {},
		...(answer === undefined ? {} : { uiContext: ui, hasUI: true }),
	});
}

describe("HookToolWrapper resolves an ask", () => {
	test("with a UI, the person is asked through ctx.ui.confirm; yes runs the call (with a rewritten input)", async () => {
		const runner = await runnerOf({ "a.ts": ASKS, "b.ts": REWRITES });
		const asked: string[][] = [];
		withUI(runner, true, asked);
		const ran: string[] = [];
		await new HookToolWrapper(bashTool(ran), runner).execute("c1", { command: "git push --force" });
		expect(ran).toEqual(["echo REWRITTEN"]);
		expect(asked).toEqual([["ASK-ONE", "Allow bash: echo REWRITTEN"]]);
	});

	test("declined: blocked with the hook's reason, the tool never runs", async () => {
		const runner = await runnerOf({ "a.ts": ASKS });
		const asked: string[][] = [];
		withUI(runner, false, asked);
		const ran: string[] = [];
		const error = await new HookToolWrapper(bashTool(ran), runner).execute("c1", { command: "x" }).catch((e) => e);
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect(error.reason).toBe("ASK-ONE");
		expect(error.hookPath).toBe("a.ts");
		expect(ran).toEqual([]);
		expect(asked).toHaveLength(1);
	});

	test("no UI (and a UI whose prompt fails): blocked, saying nobody could be asked", async () => {
		for (const answer of [undefined, "throws"] as const) {
			const runner = await runnerOf({ "a.ts": ASKS });
			withUI(runner, answer, []);
			const ran: string[] = [];
			const error = await new HookToolWrapper(bashTool(ran), runner).execute("c1", { command: "x" }).catch((e) => e);
			expect(error).toBeInstanceOf(ToolBlockedError);
			expect(error.reason).toStartWith("ASK-ONE (a hook asks for confirmation, and there is no one to ask here");
			expect(ran).toEqual([]);
		}
	});
});

describe("the harness reports an ask (`asked`)", () => {
	const hook: HookFactory = (pi) => pi.on("tool_call", () => ({ ask: true, reason: "ASK-ONE" }));

	test("yes: not blocked, asked; no: blocked with the reason; nobody there: blocked", async () => {
		const yes = await createHookHarness(hook, { ui: { confirm: true } });
		expect(await yes.toolCall("bash", { command: "x" })).toEqual({ blocked: false, asked: true, reason: "ASK-ONE" });
		expect(yes.prompts).toMatchObject([{ kind: "confirm", title: "ASK-ONE", answer: true }]);
		const no = await createHookHarness(hook, { ui: { confirm: false } });
		expect(await no.toolCall("bash", { command: "x" })).toEqual({ blocked: true, asked: true, reason: "ASK-ONE" });
		const nobody = await createHookHarness(hook);
		expect(await nobody.toolCall("bash", { command: "x" })).toMatchObject({ blocked: true, asked: true });
		expect(nobody.prompts).toEqual([]);
	});
});

describe("`emit tool_call` reports an ask and exits as a block does", () => {
	test("result {ask, reason}, exit 2, the reason on stderr", async () => {
		const dir = tempDir();
		const home = tempDir();
		writeFiles(dir, { "asks.ts": ASKS, "allows.ts": ALLOWS });
		const proc = Bun.spawn(
			[
				process.execPath,
				join(import.meta.dir, "..", "..", "src", "cli.ts"),
				"emit",
				"tool_call",
				"--no-discovery",
				"--hook",
				"asks.ts",
				"--hook",
				"allows.ts",
			],
			{
				cwd: dir,
				stdin: new TextEncoder().encode(JSON.stringify({ toolName: "bash", input: { command: "ls" } })),
				stdout: "pipe",
				stderr: "pipe",
				env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
			},
		);
		const timer = setTimeout(() => proc.kill("SIGKILL"), 50_000);
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		clearTimeout(timer);
		expect(JSON.parse(stdout).result).toEqual({ ask: true, reason: "ASK-ONE" });
		expect(stderr).toContain("asked: ASK-ONE");
		expect(code).toBe(2);
		const log = join(home, ".xcsh", "agent", "decisions.jsonl");
		expect(existsSync(log) && (await Bun.file(log).text()).includes('"decision":"ask"')).toBe(true);
	}, 60_000);
});
