/**
 * A `tool_call` result `{input}` replaces the whole input, chained (docs/contract.md#the-runner `emitToolCall`, #the-tool-wrapper): later
 * handlers see it, the tool runs with it, and the first block still wins. A replaced input that does not
 * fit the tool's parameters blocks, naming the field; changing `event.input` in place blocks too.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ToolBlockedError } from "xcsh-hooks";
import { createHookHarness } from "xcsh-hooks/testing";
import { createServer } from "../../src/serve/index.ts";
import { answer, DRY_RUN, DRY_RUN_GUARD, ECHO_PREFIX, loaded, project, returning, runCli, serveOnce, textOf, useClis } from "./_compose.ts";

const clis = useClis();

/** A command whose run leaves `made.txt` behind, with or without arguments appended. */
const MAKE = "echo made > made.txt";

/** Blocks any bash command that carries --dry-run. */
const NO_DRY_RUNS = `export default (pi) => pi.on("tool_call", (event) =>
	String(event.input.command).includes("--dry-run") ? { block: true, reason: "no dry runs today: " + event.input.command } : undefined);
`;

/** Tries to change the command in place (an ES module: strict mode). */
const MUTATOR = `export default (pi) => pi.on("tool_call", (event) => {
	event.input.command = "touch pwned.txt";
});
`;

/** Answers each tool result with the input the tool ran with. */
const SHOW_INPUT = `export default (pi) => pi.on("tool_result", (event) => ({ content: [{ type: "text", text: JSON.stringify(event.input) }] }));\n`;

const HOOKS = {
	"dry-run.ts": DRY_RUN,
	"guard.ts": DRY_RUN_GUARD,
	"echo.ts": ECHO_PREFIX,
	"no-dry-runs.ts": NO_DRY_RUNS,
	"mutate.ts": MUTATOR,
	"show-input.ts": SHOW_INPUT,
	"invalid.ts": returning("tool_call", "{ input: { command: 42 } }"),
	"pre/bash.sh": `#!/bin/sh\ncat > /dev/null\necho '{"input":{"command":"echo from-shell"}}'\n`,
};

/** A rejection's error, or a failure when the promise resolved. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error("expected the call to be blocked, but the tool ran");
}

describe("in process", () => {
	test("rewriter then guard: the guard sees the rewritten command and the tool runs it", async () => {
		const { bash } = await loaded(project(HOOKS), ["dry-run.ts", "guard.ts"]);
		expect(textOf((await bash.execute("c1", { command: "echo ran" })).content)).toBe("ran --dry-run\n");
	}, 60_000);

	test("guard then rewriter: the guard sees the original command and blocks it", async () => {
		const dir = project(HOOKS);
		const { bash } = await loaded(dir, ["guard.ts", "dry-run.ts"]);
		const error = await rejection(bash.execute("c1", { command: MAKE }));
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect(error.message).toBe(`guard saw: ${MAKE}`);
		expect(existsSync(join(dir, "made.txt"))).toBe(false);
	}, 60_000);

	test("two rewriters: the second builds on the first, and emitToolCall returns the final input", async () => {
		const { runner, bash } = await loaded(project(HOOKS), ["dry-run.ts", "echo.ts"]);
		const input = { command: "printf ran" };
		const result = await runner.emitToolCall({ type: "tool_call", toolName: "bash", toolCallId: "c1", input });
		expect(result?.input).toEqual({ command: "echo printf ran --dry-run" });
		expect(input).toEqual({ command: "printf ran" });
		expect(textOf((await bash.execute("c2", input)).content)).toBe("printf ran --dry-run\n");
	}, 60_000);

	test("a block after a rewrite blocks, and the tool does not run", async () => {
		const dir = project(HOOKS);
		const { bash } = await loaded(dir, ["dry-run.ts", "no-dry-runs.ts"]);
		const error = await rejection(bash.execute("c1", { command: MAKE }));
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect(error.message).toBe(`no dry runs today: ${MAKE} --dry-run`);
		expect(existsSync(join(dir, "made.txt"))).toBe(false);
	}, 60_000);

	test("a rewrite to an input the tool does not accept is blocked, naming the field", async () => {
		const dir = project(HOOKS);
		const { bash } = await loaded(dir, ["invalid.ts"]);
		const error = await rejection(bash.execute("c1", { command: MAKE }));
		expect(error).toBeInstanceOf(ToolBlockedError);
		expect((error as ToolBlockedError).code).toBe("TOOL_BLOCKED");
		expect(error.message).toContain("invalid.ts");
		expect(error.message).toContain("bash input.command");
		expect(existsSync(join(dir, "made.txt"))).toBe(false);
	}, 60_000);

	test("changing event.input in place blocks the call: neither command runs and the caller's input is unchanged", async () => {
		const dir = project(HOOKS);
		const { bash } = await loaded(dir, ["mutate.ts"]);
		const input = { command: MAKE };
		const error = await rejection(bash.execute("c1", input));
		expect(error).toBeInstanceOf(TypeError); // the hook's own error, rethrown as is
		expect(input).toEqual({ command: MAKE });
		expect([existsSync(join(dir, "made.txt")), existsSync(join(dir, "pwned.txt"))]).toEqual([false, false]);
	}, 60_000);

	test("a nested value of event.input cannot be changed in place either", async () => {
		const dir = project({ "deep.ts": `export default (pi) => pi.on("tool_call", (event) => { event.input.options.force = true; });\n` });
		const { runner } = await loaded(dir, ["deep.ts"]);
		const input = { options: { force: false } };
		await expect(runner.emitToolCall({ type: "tool_call", toolName: "custom", toolCallId: "c1", input })).rejects.toBeInstanceOf(TypeError);
		expect(input.options.force).toBe(false);
	}, 60_000);

	test("tool_result.input is the input the tool ran with", async () => {
		const { bash } = await loaded(project(HOOKS), ["dry-run.ts", "show-input.ts"]);
		expect(textOf((await bash.execute("c1", { command: "true" })).content)).toBe('{"command":"true --dry-run"}');
	}, 60_000);

	test("a shell pre hook printing {input} rewrites the call, and a module guard after it sees the new command", async () => {
		const dir = project({
			...HOOKS,
			"from-shell-only.ts": `export default (pi) => pi.on("tool_call", (event) =>
	event.input.command === "echo from-shell" ? undefined : { block: true, reason: "saw " + event.input.command });\n`,
		});
		const { bash } = await loaded(dir, ["pre/bash.sh", "from-shell-only.ts"]);
		expect(textOf((await bash.execute("c1", { command: MAKE })).content)).toBe("from-shell\n");
		expect(existsSync(join(dir, "made.txt"))).toBe(false);
	}, 60_000);

	test("the harness's toolCall returns the rewritten input", async () => {
		const dir = project(HOOKS);
		const h = await createHookHarness(join(dir, "dry-run.ts"));
		expect(await h.toolCall("bash", { command: "ls" })).toEqual({ blocked: false, input: { command: "ls --dry-run" } });
		expect(await h.toolCall("read", { path: "a" })).toEqual({ blocked: false });
	}, 60_000);

	test("serve (in process): toolCall answers {block: false, input} with the final input", async () => {
		const dir = project(HOOKS);
		const lines: any[] = [];
		const server = await createServer({
			watch: false,
			host: { cwd: dir, hookPaths: [join(dir, "dry-run.ts"), join(dir, "echo.ts")], discovery: false },
			write: (line) => lines.push(JSON.parse(line)),
			log: () => {},
		});
		try {
			await server.handleLine(JSON.stringify({ id: 1, method: "toolCall", params: { toolName: "bash", input: { command: "ls" } } }));
			expect(lines.find((l) => l.id === 1)?.result).toEqual({ block: false, input: { command: "echo ls --dry-run" } });
		} finally {
			await server.shutdown();
		}
	}, 60_000);
});

for (const cli of clis)
	describe(cli.name, () => {
		const runBash = (dir: string, hooks: string[], command: string) =>
			runCli(cli, ["run", "bash", "--no-discovery", ...hooks.flatMap((h) => ["--hook", h]), "--input", JSON.stringify({ command })], dir);

		test("emit tool_call prints the final input of two rewriters", async () => {
			const dir = project(HOOKS);
			const run = await runCli(cli, ["emit", "tool_call", "--no-discovery", "--hook", "dry-run.ts", "--hook", "echo.ts"], dir, {
				stdin: JSON.stringify({ toolName: "bash", input: { command: "ls" } }),
			});
			expect(run.code).toBe(0);
			expect(JSON.parse(run.stdout).result).toEqual({ input: { command: "echo ls --dry-run" } });
		}, 60_000);

		test("run bash: rewriter then guard runs the rewritten command", async () => {
			const run = await runBash(project(HOOKS), ["dry-run.ts", "guard.ts"], "echo ran");
			expect({ code: run.code, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ code: 0, stdout: "ran --dry-run", stderr: "" });
		}, 60_000);

		test("run bash: guard then rewriter blocks with the original command (exit 2)", async () => {
			const dir = project(HOOKS);
			const run = await runBash(dir, ["guard.ts", "dry-run.ts"], MAKE);
			expect(run.code).toBe(2);
			expect(run.stderr).toContain(`guard saw: ${MAKE}`);
			expect(existsSync(join(dir, "made.txt"))).toBe(false);
		}, 60_000);

		test("run bash: a block after a rewrite blocks (exit 2) and nothing runs", async () => {
			const dir = project(HOOKS);
			const run = await runBash(dir, ["dry-run.ts", "no-dry-runs.ts"], MAKE);
			expect(run.code).toBe(2);
			expect(run.stderr).toContain(`no dry runs today: ${MAKE} --dry-run`);
			expect(existsSync(join(dir, "made.txt"))).toBe(false);
		}, 60_000);

		test("run bash: a rewrite to an invalid input is blocked (exit 2), naming bash input.command", async () => {
			const dir = project(HOOKS);
			const run = await runBash(dir, ["invalid.ts"], MAKE);
			expect(run.code).toBe(2);
			expect(run.stderr).toContain("bash input.command");
			expect(existsSync(join(dir, "made.txt"))).toBe(false);
		}, 60_000);

		test("run bash: changing event.input in place is blocked (exit 2) and neither command runs", async () => {
			const dir = project(HOOKS);
			const run = await runBash(dir, ["mutate.ts"], MAKE);
			expect(run.code).toBe(2);
			expect([existsSync(join(dir, "made.txt")), existsSync(join(dir, "pwned.txt"))]).toEqual([false, false]);
		}, 60_000);

		test("run bash: a shell pre hook's {input} is what runs", async () => {
			const dir = project(HOOKS);
			const run = await runBash(dir, ["pre/bash.sh"], MAKE);
			expect({ code: run.code, stdout: run.stdout.trim() }).toEqual({ code: 0, stdout: "from-shell" });
			expect(existsSync(join(dir, "made.txt"))).toBe(false);
		}, 60_000);

		test("serve: toolCall answers {block: false, input} when hooks rewrote it, {block: false} when not", async () => {
			const dir = project(HOOKS);
			const served = await serveOnce(cli, ["--hook", "dry-run.ts"], dir, [
				{ id: 1, method: "toolCall", params: { toolName: "bash", input: { command: "ls" } } },
				{ id: 2, method: "toolCall", params: { toolName: "read", input: { path: "a" } } },
			]);
			expect(answer(served, 1).result).toEqual({ block: false, input: { command: "ls --dry-run" } });
			expect(answer(served, 2).result).toEqual({ block: false });
			expect(served.code).toBe(0);
		}, 60_000);
	});
