/**
 * One rule for results everywhere (issue 18, item 9). `runner.emit()` of a `tool_call`, `context` or
 * `before_agent_start` event checks and uses what handlers return as the dedicated `emit*` methods do
 * (a bad `tool_call` result still blocks); a `tool_result` handler's `details: null` (or an explicit
 * `details: undefined`) means the same to the next handler as in the final result, through the
 * runner, the wrapper, the harness, `emit`, `run` and `bridge claude`; and `loadCapability("hooks")`
 * works in a fresh process without `registerHookDiscovery()`, with nothing defined before first use.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, ROOT, runArgv, runCli, useClis } from "./_cli.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { gateToolCall, HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, HookError, ToolCallEvent } from "../../src/hooks/types.ts";
import { createHookHarness } from "../../src/testing/harness.ts";
import { Type } from "@sinclair/typebox";

/** A runner over real hook files written to a temp dir, recording what reaches `onError`. */
async function runnerFor(files: Record<string, string>) {
	const dir = tempDir();
	writeFiles(dir, files);
	const { hooks, errors } = await loadHooks(Object.keys(files), dir);
	expect(errors).toEqual([]);
	const runner = new HookRunner(hooks, dir);
	const reported: HookError[] = [];
	runner.onError((error) => reported.push(error));
	return { runner, reported, dir };
}

const hook = (body: string) => `export default (pi) => {\n${body}\n};\n`;
const call: ToolCallEvent = { type: "tool_call", toolName: "bash", toolCallId: "c1", input: { command: "rm -rf /" } };

describe("runner.emit() checks and uses the results of tool_call, context and before_agent_start", () => {
	test("a typo in a guard's result is reported and blocks the call; emitToolCall and the gate still fail closed", async () => {
		const { runner, reported } = await runnerFor({ "typo.ts": hook(`pi.on("tool_call", () => ({ blok: true, reason: "no" }));`) });
		const emitted = await runner.emit(call);
		expect(emitted?.block).toBe(true);
		expect(emitted?.reason).toContain("typo.ts");
		expect(emitted?.reason).toContain("blok");
		expect(reported).toHaveLength(1);
		expect(reported[0]).toMatchObject({ hookPath: "typo.ts", event: "tool_call" });
		expect(reported[0]?.error).toContain("blok");
		await expect(runner.emitToolCall(call)).rejects.toThrow("blok");
		expect((await gateToolCall(runner, call)).block).toBe(true);
	});

	test("a guard's block, a throwing guard and a rewrite are what emit() resolves, as emitToolCall decides", async () => {
		const blocking = await runnerFor({ "g.ts": hook(`pi.on("tool_call", () => ({ block: true, reason: "policy" }));`) });
		expect(await blocking.runner.emit(call)).toEqual({ block: true, reason: "policy" });

		const throwing = await runnerFor({ "t.ts": hook(`pi.on("tool_call", () => { throw new Error("guard crashed"); });`) });
		expect(await throwing.runner.emit(call)).toEqual({ block: true, reason: "guard crashed" });
		expect(throwing.reported.map((e) => e.error)).toEqual(["guard crashed"]);

		const rewriting = await runnerFor({
			"r.ts": hook(`pi.on("tool_call", (e) => ({ input: { ...e.input, command: "echo safe" } }));
pi.on("tool_call", (e) => { if (e.input.command !== "echo safe") return { block: true, reason: "not chained" }; });`),
		});
		expect(await rewriting.runner.emit(call)).toEqual({ input: { command: "echo safe" } });
		expect(call.input).toEqual({ command: "rm -rf /" }); // the caller's event is untouched
	});

	test("the test harness's emit() of a tool_call blocks a typo too", async () => {
		const dir = tempDir();
		writeFiles(dir, { "typo.ts": hook(`pi.on("tool_call", () => ({ block: "yes" }));`) });
		const harness = await createHookHarness(join(dir, "typo.ts"), { cwd: dir });
		expect((await harness.emit(call))?.block).toBe(true);
		expect(harness.errors.map((e) => e.event)).toEqual(["tool_call"]);
	});

	test("context: an invalid result is reported and ignored, the chain continues and emit() resolves the messages", async () => {
		const { runner, reported } = await runnerFor({
			"ctx.ts": hook(`pi.on("context", () => ({ messages: "not a list" }));
pi.on("context", (e) => ({ messages: [...e.messages, { role: "user", content: "added", timestamp: 2 }] }));`),
		});
		const messages = [{ role: "user" as const, content: "hi", timestamp: 1 }];
		const emitted = await runner.emit({ type: "context", messages });
		expect(emitted?.messages?.map((m) => (m as { content: unknown }).content)).toEqual(["hi", "added"]);
		expect(reported).toHaveLength(1);
		expect(reported[0]?.error).toContain("messages");
		expect(messages).toHaveLength(1); // handlers work on a copy, as with emitContext
		expect((await runner.emitContext(messages)).length).toBe(2);
	});

	test("before_agent_start: an invalid result is reported and ignored, the first valid message is kept", async () => {
		const { runner, reported } = await runnerFor({
			"bas.ts": hook(`pi.on("before_agent_start", () => ({ mesage: "typo" }));
pi.on("before_agent_start", (e) => ({ message: { customType: "x", content: "for " + e.prompt, display: true, details: null } }));`),
		});
		const emitted = await runner.emit({ type: "before_agent_start", prompt: "go" });
		expect(emitted?.message?.content).toBe("for go");
		expect(reported).toHaveLength(1);
		expect(reported[0]?.error).toContain("mesage");
		expect(await runner.emitBeforeAgentStart("go")).toEqual(emitted);
	});
});

/** `details: null` clears them; the next handler reports what it saw as `event.details` in the content. */
const CLEARS = hook(`pi.on("tool_result", () => ({ details: null }));`);
/** An explicit `details: undefined` next to new content is "details not given", never "details dropped". */
const REDACTS = hook(`pi.on("tool_result", () => ({ details: { stdout: "", stderr: "", redactedBy: "first" } }));`);
const REPORTS = hook(
	`pi.on("tool_result", (e) => ({ content: [{ type: "text", text: "saw " + JSON.stringify(e.details) }], details: undefined }));`,
);

const echoTool: AgentTool = {
	name: "echo",
	label: "Echo",
	description: "returns details",
	parameters: Type.Object({}),
	execute: async () => ({ content: [{ type: "text", text: "out" }], details: { secret: "s3cr3t" } }),
};

describe("a tool_result handler's details mean the same to the next handler and in the final result", () => {
	test("details: null through the wrapper, the harness and emit()", async () => {
		const { runner } = await runnerFor({ "a.ts": CLEARS, "b.ts": REPORTS });
		const wrapped = await new HookToolWrapper(echoTool, runner).execute("c1", {});
		expect(wrapped).toEqual({ content: [{ type: "text", text: "saw null" }], details: null });

		const emitted = await runner.emit({ ...call, type: "tool_result", content: [], details: { secret: "s3cr3t" }, isError: false });
		expect(emitted).toEqual({ content: [{ type: "text", text: "saw null" }], details: null });

		const dir = tempDir();
		writeFiles(dir, { "both.ts": hook(`pi.on("tool_result", () => ({ details: null }));`) });
		const harness = await createHookHarness(join(dir, "both.ts"), { cwd: dir });
		expect((await harness.toolResult("bash", {}, "out", { details: { secret: "s3cr3t" } })).details).toBeNull();
	});

	test("a later handler's explicit details: undefined keeps an earlier replacement in the result", async () => {
		const { runner } = await runnerFor({ "a.ts": REDACTS, "b.ts": REPORTS });
		const redacted = { stdout: "", stderr: "", redactedBy: "first" };
		const text = `saw ${JSON.stringify(redacted)}`;
		const emitted = await runner.emit({ ...call, type: "tool_result", content: [], details: { secret: "s3cr3t" }, isError: false });
		expect(emitted).toEqual({ content: [{ type: "text", text }], details: redacted });
		const wrapped = await new HookToolWrapper(echoTool, runner).execute("c1", {});
		expect(wrapped).toEqual({ content: [{ type: "text", text }], details: redacted });
	});
});

function cliCells(cli: Cli): void {
	/** A project with the two hook files, given with `--hook` (the user's own: no approval involved). */
	const setup = (files: Record<string, string>) => {
		const project = tempDir();
		writeFiles(project, files);
		const hooks = Object.keys(files).flatMap((name) => ["--hook", join(project, name)]);
		return { project, home: privateHome({ server: false }), args: ["--no-discovery", ...hooks] };
	};

	test(
		"emit tool_result: an earlier details replacement survives a later details: undefined",
		async () => {
			const { project, home, args } = setup({ "a.ts": REDACTS, "b.ts": REPORTS });
			const event = { toolName: "bash", input: { command: "ls" }, content: [], details: { secret: "s3cr3t" }, isError: false };
			const run = await runCli(cli, ["emit", "tool_result", ...args], { cwd: project, home, stdin: JSON.stringify(event) });
			expect(run.code).toBe(0);
			const redacted = { stdout: "", stderr: "", redactedBy: "first" };
			expect(JSON.parse(run.stdout).result).toEqual({
				content: [{ type: "text", text: `saw ${JSON.stringify(redacted)}` }],
				details: redacted,
			});
		},
		CELL_TIMEOUT_MS,
	);

	test(
		"run bash --json: details: null is null in the output, as the next handler saw it",
		async () => {
			const { project, home, args } = setup({ "a.ts": CLEARS, "b.ts": REPORTS });
			const run = await runCli(cli, ["run", "bash", "--input", '{"command":"echo hi"}', "--json", ...args], { cwd: project, home });
			expect(run.code).toBe(0);
			const out = JSON.parse(run.stdout);
			expect(out.content).toEqual([{ type: "text", text: "saw null" }]);
			expect(out.details).toBeNull();
		},
		CELL_TIMEOUT_MS,
	);

	test(
		"bridge claude PostToolUse: the replaced output is built on the earlier replacement the next handler saw",
		async () => {
			const { project, home, args } = setup({ "a.ts": REDACTS, "b.ts": REPORTS });
			const payload = {
				session_id: "s",
				hook_event_name: "PostToolUse",
				cwd: project,
				tool_name: "Bash",
				tool_input: { command: "cat .env" },
				tool_response: { stdout: "API_KEY=s3cr3t", stderr: "", interrupted: false, isImage: false },
				tool_use_id: "toolu_1",
			};
			const run = await runCli(cli, ["bridge", "claude", ...args], { cwd: project, home, stdin: JSON.stringify(payload) });
			expect(run.code).toBe(0);
			const redacted = { stdout: "", stderr: "", redactedBy: "first" };
			expect(JSON.parse(run.stdout).hookSpecificOutput?.updatedToolOutput).toEqual({
				...redacted,
				stdout: `saw ${JSON.stringify(redacted)}`,
			});
		},
		CELL_TIMEOUT_MS,
	);
}

describe("through both CLIs", () => {
	for (const cli of useClis()) describe(cli.name, () => cliCells(cli));
});

/** Run in a fresh process: the default registry is per process, and other test files may have used it. */
const FRESH = `
import * as root from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
const cwd = process.argv[2];
const before = root.defaultRegistry.hasCapability("hooks");
const found = await root.loadCapability("hooks", { cwd });
const names = found.items.map((h) => h.path.slice(cwd.length));
const providers = found.providers.map((p) => p.id);
root.registerHookDiscovery(); // still harmless afterwards
const again = await root.discoverAndLoadHooks([], cwd);
console.log(JSON.stringify({ before, after: root.defaultRegistry.hasCapability("hooks"), names, providers, warnings: found.warnings, loaded: again.hooks.length }));
`;

const PROVIDER_FIRST = `
import * as root from ${JSON.stringify(join(ROOT, "src", "index.ts"))};
root.registerProvider("hooks", { id: "mine", displayName: "Mine", description: "", priority: 1, load: () => ({ items: [] }) });
const found = await root.loadCapability("hooks", { cwd: process.argv[2] });
console.log(JSON.stringify(found.providers.map((p) => p.id)));
`;

describe('loadCapability("hooks") in a fresh process, without registerHookDiscovery()', () => {
	test("defines the built-in capability and its providers on first use, not at import", async () => {
		const project = tempDir();
		const home = privateHome();
		writeFiles(project, { ".xcsh/hooks/pre/bash.sh": "#!/bin/sh\nexit 0\n", "fresh.ts": FRESH, "first.ts": PROVIDER_FIRST });
		const run = await runArgv([process.execPath, join(project, "fresh.ts"), project], { cwd: project, home, timeoutMs: 30_000 });
		expect(run.stderr).not.toContain("Unknown capability");
		expect(run.code).toBe(0);
		const out = JSON.parse(run.stdout);
		expect(out.before).toBe(false); // importing the package defined nothing
		expect(out.after).toBe(true);
		expect(out.names).toEqual(["/.xcsh/hooks/pre/bash.sh"]);
		expect(out.providers.slice(0, 4)).toEqual(["system", "native", "claude", "codex"]);

		// An embedder adding a provider first gets the built-in ones beside it.
		const first = await runArgv([process.execPath, join(project, "first.ts"), project], { cwd: project, home, timeoutMs: 30_000 });
		expect(first.code).toBe(0);
		expect(JSON.parse(first.stdout)).toEqual(expect.arrayContaining(["native", "claude", "codex", "mine"]));
	}, 60_000);
});
