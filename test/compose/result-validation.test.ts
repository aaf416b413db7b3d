/**
 * Handler results are checked against their event's result schema (docs/contract.md#the-runner "Results are validated",
 * §8.3): a typo or a wrong type in a guard's answer blocks the call, naming the hook, the event and the
 * field; a bad `tool_result` answer is reported and the tool's own output is kept. A shell hook's JSON
 * goes through the same check. Events that take no result ignore what handlers return.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { answer, loaded, project, returning, runCli, serveOnce, shellPrinting, textOf, useClis } from "./_compose.ts";

const clis = useClis();

/** Bad tool_call results and the field each error must name. */
const BAD_CALLS = [
	{ result: { blok: true }, field: "tool_call result.blok" },
	{ result: { block: "yes" }, field: "tool_call result.block" },
	{ result: { block: true, reason: 42 }, field: "tool_call result.reason" },
];

const BAD_CONTENT = { content: "not an array" };
const MAKE = "echo made > made.txt";
const FILE_TEXT = "plain text\n";

/** A project with the bad result as a module hook (`hook.ts`) and as a shell pre/post hook for bash/read. */
function badProject(result: object, event: "tool_call" | "tool_result"): string {
	return project({
		"hook.ts": returning(event, JSON.stringify(result)),
		[event === "tool_call" ? "pre/bash.sh" : "post/read.sh"]: shellPrinting(result),
		"file.txt": FILE_TEXT,
	});
}

const HOOK_KINDS = [
	{ kind: "a module hook", file: (_event: string) => "hook.ts" },
	{ kind: "a shell hook", file: (event: string) => (event === "tool_call" ? "pre/bash.sh" : "post/read.sh") },
];

describe("in process", () => {
	for (const { kind, file } of HOOK_KINDS) {
		for (const { result, field } of BAD_CALLS)
			test(`${kind} answering tool_call with ${JSON.stringify(result)} blocks the call, naming hook, event and field`, async () => {
				const dir = badProject(result, "tool_call");
				const { bash } = await loaded(dir, [file("tool_call")]);
				const error = await bash.execute("c1", { command: MAKE }).then(
					() => undefined,
					(e: Error) => e,
				);
				expect(error?.message).toContain(`Hook ${file("tool_call")} returned an invalid tool_call result`);
				expect(error?.message).toContain(field);
				expect(error).toBeInstanceOf(Error);
				expect(existsSync(join(dir, "made.txt"))).toBe(false);
			}, 60_000);

		test(`${kind} answering tool_result with {content: "not an array"} is reported to onError and the output is kept`, async () => {
			const dir = badProject(BAD_CONTENT, "tool_result");
			const { read, reported } = await loaded(dir, [file("tool_result")]);
			const result = await read.execute("c1", { path: "file.txt" });
			expect(textOf(result.content)).toBe(FILE_TEXT);
			expect(reported).toHaveLength(1);
			expect(reported[0]).toMatchObject({ hookPath: file("tool_result"), event: "tool_result" });
			expect(reported[0]?.error).toContain("tool_result result.content");
		}, 60_000);
	}

	test("a later valid redaction still applies after an invalid one was ignored", async () => {
		const dir = project({
			"bad.ts": returning("tool_result", JSON.stringify(BAD_CONTENT)),
			"good.ts": `export default (pi) => pi.on("tool_result", (event) => ({ content: [{ type: "text", text: event.content[0].text.toUpperCase() }] }));\n`,
			"file.txt": FILE_TEXT,
		});
		const { read, reported } = await loaded(dir, ["bad.ts", "good.ts"]);
		expect(textOf((await read.execute("c1", { path: "file.txt" })).content)).toBe(FILE_TEXT.toUpperCase());
		expect(reported.map((e) => e.hookPath)).toEqual(["bad.ts"]);
	}, 60_000);

	test("other events with a result schema report a bad result and ignore it", async () => {
		const dir = project({
			"hook.ts": `export default function (pi) {
	pi.on("session_before_switch", () => ({ cancle: true }));
	pi.on("context", () => ({ messages: "none" }));
	pi.on("before_agent_start", () => ({ message: "hi" }));
	pi.on("session.compacting", () => ({ prompt: 7 }));
}
`,
		});
		const { runner, reported } = await loaded(dir, ["hook.ts"]);
		const messages = [{ role: "user" as const, content: "hi" }];
		expect(await runner.emit({ type: "session_before_switch", reason: "new" })).toBeUndefined();
		expect(await runner.emitContext(messages)).toEqual(messages);
		expect(await runner.emitBeforeAgentStart("go")).toBeUndefined();
		expect(await runner.emit({ type: "session.compacting" })).toBeUndefined();
		expect(reported.map((e) => [e.event, e.error.match(/\S+ result\.\w+/)?.[0]])).toEqual([
			["session_before_switch", "session_before_switch result.cancle"],
			["context", "context result.messages"],
			["before_agent_start", "before_agent_start result.message"],
			["session.compacting", "session.compacting result.prompt"],
		]);
	}, 60_000);

	test("events that take no result ignore whatever handlers return", async () => {
		const dir = project({
			"hook.ts": `export default function (pi) {
	pi.on("agent_start", () => ({ blok: true }));
	pi.on("turn_start", () => "yes");
}
`,
		});
		const { runner, reported } = await loaded(dir, ["hook.ts"]);
		expect(await runner.emit({ type: "agent_start" })).toBeUndefined();
		expect(await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: 0 })).toBeUndefined();
		expect(reported).toEqual([]);
	}, 60_000);
});

for (const cli of clis)
	describe(cli.name, () => {
		for (const { kind, file } of HOOK_KINDS) {
			for (const { result, field } of BAD_CALLS)
				test(`emit tool_call: ${kind} answering ${JSON.stringify(result)} exits 2, naming hook and field`, async () => {
					const dir = badProject(result, "tool_call");
					const run = await runCli(cli, ["emit", "tool_call", "--no-discovery", "--hook", file("tool_call")], dir, {
						stdin: JSON.stringify({ toolName: "bash", input: { command: MAKE } }),
					});
					expect(run.code).toBe(2);
					expect(JSON.parse(run.stdout).result.block).toBe(true);
					expect(run.stderr).toContain(`${join(dir, file("tool_call"))} returned an invalid tool_call result`);
					expect(run.stderr).toContain(field);
				}, 60_000);

			test(`run bash: ${kind} answering {blok: true} is blocked (exit 2) and the command does not run`, async () => {
				const dir = badProject({ blok: true }, "tool_call");
				const run = await runCli(
					cli,
					["run", "bash", "--no-discovery", "--hook", file("tool_call"), "--input", JSON.stringify({ command: MAKE })],
					dir,
				);
				expect(run.code).toBe(2);
				expect(run.stderr).toContain("tool_call result.blok");
				expect(existsSync(join(dir, "made.txt"))).toBe(false);
			}, 60_000);

			test(`run read: ${kind} answering {content: "not an array"} keeps the output and reports the error on stderr`, async () => {
				const dir = badProject(BAD_CONTENT, "tool_result");
				const run = await runCli(
					cli,
					["run", "read", "--no-discovery", "--hook", file("tool_result"), "--input", '{"path":"file.txt"}'],
					dir,
				);
				expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: FILE_TEXT });
				expect(run.stderr).toContain(`hook error (tool_result) ${join(dir, file("tool_result"))}`);
				expect(run.stderr).toContain("tool_result result.content");
			}, 60_000);

			test(`emit tool_result: ${kind} answering {content: "not an array"} is listed in errors, result null`, async () => {
				const dir = badProject(BAD_CONTENT, "tool_result");
				const event = {
					toolName: "read",
					input: { path: "file.txt" },
					content: [{ type: "text", text: FILE_TEXT }],
					details: null,
					isError: false,
				};
				const run = await runCli(cli, ["emit", "tool_result", "--no-discovery", "--hook", file("tool_result")], dir, {
					stdin: JSON.stringify(event),
				});
				expect(run.code).toBe(0);
				const printed = JSON.parse(run.stdout);
				expect(printed.result).toBeNull();
				expect(printed.errors).toMatchObject([{ hookPath: join(dir, file("tool_result")), event: "tool_result" }]);
				expect(printed.errors[0].error).toContain("tool_result result.content");
			}, 60_000);
		}

		test('serve: toolCall with a guard answering {block: "yes"} is blocked, naming the field', async () => {
			const dir = badProject({ block: "yes" }, "tool_call");
			const served = await serveOnce(cli, ["--hook", "hook.ts"], dir, [
				{ id: 1, method: "toolCall", params: { toolName: "bash", input: { command: "ls" } } },
			]);
			expect(answer(served, 1).result).toEqual({
				block: true,
				reason: expect.stringContaining("tool_call result.block: expected boolean"),
			});
		}, 60_000);
	});
