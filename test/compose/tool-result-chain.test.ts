/**
 * Two redactors with different patterns both apply (docs/contract.md#the-runner `tool_result` chained, #the-tool-wrapper step 3, #shell-hooks):
 * each handler sees the content as the handlers before it left it, so no redaction is lost — in the
 * runner, the wrapper, the harness, a shell post hook mixed with a module hook, `run`, `emit` and `serve`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHookHarness } from "xcsh-hooks/testing";
import { createServer } from "../../src/serve/index.ts";
import {
	answer,
	loaded,
	privateHome,
	project,
	REDACT_EMAILS,
	REDACT_KEYS,
	REDACTED_TEXT,
	runCli,
	SECRET_TEXT,
	serveOnce,
	SHELL_REDACT_EMAILS,
	SHELL_REDACT_KEYS,
	textOf,
	useClis,
} from "./_compose.ts";

const clis = useClis();

/** A project with both redactors, a shell post hook for `read`, and a file holding both kinds of secret. */
function redactProject(): string {
	return project({
		"keys.ts": REDACT_KEYS,
		"emails.ts": REDACT_EMAILS,
		"post/read.sh": SHELL_REDACT_EMAILS,
		"secrets.txt": `${SECRET_TEXT}\n`,
	});
}

const toolResult = (text: string) => ({
	type: "tool_result" as const,
	toolName: "read",
	toolCallId: "c1",
	input: { path: "secrets.txt" },
	content: [{ type: "text" as const, text }],
	details: null,
	isError: false,
});

describe("in process", () => {
	test("runner.emit(tool_result) resolves both redactions, in either order", async () => {
		const dir = redactProject();
		for (const order of [
			["keys.ts", "emails.ts"],
			["emails.ts", "keys.ts"],
		]) {
			const { runner, reported } = await loaded(dir, order);
			const result = await runner.emit(toolResult(SECRET_TEXT));
			expect(result?.content).toEqual([{ type: "text", text: REDACTED_TEXT }]);
			expect(reported).toEqual([]);
		}
	}, 60_000);

	test("a later handler sees the earlier one's content and details; the merged result keeps the details it did not touch", async () => {
		const dir = project({
			"first.ts": `export default (pi) => pi.on("tool_result", () => ({ content: [{ type: "text", text: "one" }], details: { by: "first" } }));\n`,
			"second.ts": `export default (pi) => pi.on("tool_result", (event) => ({
	content: [{ type: "text", text: event.content[0].text + " two (details by " + event.details.by + ")" }],
}));\n`,
		});
		const { runner } = await loaded(dir, ["first.ts", "second.ts"]);
		expect(await runner.emit(toolResult("zero"))).toEqual({
			content: [{ type: "text", text: "one two (details by first)" }],
			details: { by: "first" },
		});
	}, 60_000);

	test("the wrapped read tool returns the file with both redactions", async () => {
		const { read } = await loaded(redactProject(), ["keys.ts", "emails.ts"]);
		const result = await read.execute("c1", { path: "secrets.txt" });
		expect(textOf(result.content)).toBe(`${REDACTED_TEXT}\n`);
		expect(result.details).toMatchObject({ lines: 1 }); // the tool's own details survive
	}, 60_000);

	test("a shell post hook after a module hook gets the redacted content on stdin and adds its own redaction", async () => {
		const dir = redactProject();
		const { read, reported } = await loaded(dir, ["keys.ts", "post/read.sh"]);
		const result = await read.execute("c1", { path: "secrets.txt" });
		expect(reported).toEqual([]);
		expect(textOf(result.content)).toBe(`${REDACTED_TEXT}\n`);
		const seen = JSON.parse(readFileSync(join(dir, "seen.json"), "utf8"));
		expect(seen.content).toEqual([{ type: "text", text: "API_KEY=*** owner=ops@example.com\n" }]);
	}, 60_000);

	test("a module hook after a shell post hook still applies on top of the shell's redaction", async () => {
		const { read } = await loaded(redactProject(), ["post/read.sh", "keys.ts"]);
		expect(textOf((await read.execute("c1", { path: "secrets.txt" })).content)).toBe(`${REDACTED_TEXT}\n`);
	}, 60_000);

	test("the harness's toolResult shows two redacting handlers of one hook both applied", async () => {
		const dir = project({
			"both.ts": `export default function (pi) {
	pi.on("tool_result", (event) => ({ content: [{ type: "text", text: event.content[0].text.replaceAll(/API_KEY=\\S+/g, "API_KEY=***") }] }));
	pi.on("tool_result", (event) => ({ content: [{ type: "text", text: event.content[0].text.replaceAll(/[\\w.+-]+@[\\w-]+\\.[\\w.]+/g, "<email>") }] }));
}
`,
		});
		const h = await createHookHarness(join(dir, "both.ts"));
		expect((await h.toolResult("read", { path: ".env" }, SECRET_TEXT)).text).toBe(REDACTED_TEXT);
	}, 60_000);

	test("serve (in process): emit with a tool_result event answers the merged redactions", async () => {
		const dir = redactProject();
		const lines: any[] = [];
		const server = await createServer({
			watch: false,
			host: { cwd: dir, hookPaths: [join(dir, "keys.ts"), join(dir, "emails.ts")], discovery: false },
			write: (line) => lines.push(JSON.parse(line)),
			log: () => {},
		});
		try {
			await server.handleLine(JSON.stringify({ id: 1, method: "emit", params: toolResult(SECRET_TEXT) }));
			expect(lines.find((l) => l.id === 1)?.result).toEqual({
				result: { content: [{ type: "text", text: REDACTED_TEXT }] },
				errors: [],
				loadErrors: [],
			});
		} finally {
			await server.shutdown();
		}
	}, 60_000);
});

for (const cli of clis)
	describe(cli.name, () => {
		test("run read prints the file with both module redactions", async () => {
			const dir = redactProject();
			const run = await runCli(
				cli,
				["run", "read", "--no-discovery", "--hook", "keys.ts", "--hook", "emails.ts", "--input", '{"path":"secrets.txt"}'],
				dir,
			);
			expect({ code: run.code, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ code: 0, stdout: REDACTED_TEXT, stderr: "" });
		}, 60_000);

		test("run read with a module hook and a shell post hook prints both redactions", async () => {
			const dir = redactProject();
			const run = await runCli(
				cli,
				["run", "read", "--no-discovery", "--hook", "keys.ts", "--hook", "post/read.sh", "--input", '{"path":"secrets.txt"}'],
				dir,
			);
			expect({ code: run.code, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ code: 0, stdout: REDACTED_TEXT, stderr: "" });
			expect(readFileSync(join(dir, "seen.json"), "utf8")).not.toContain("s3cr3t");
		}, 60_000);

		test("a user-level shell post hook in ~/.xcsh/agent/hooks/post composes with a --hook module", async () => {
			const dir = redactProject();
			const run = await runCli(cli, ["run", "read", "--hook", "emails.ts", "--input", '{"path":"secrets.txt"}'], dir, {
				homeFiles: { ".xcsh/agent/hooks/post/read.sh": SHELL_REDACT_KEYS },
			});
			expect({ code: run.code, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ code: 0, stdout: REDACTED_TEXT, stderr: "" });
		}, 60_000);

		test("a project shell post hook for every tool (.xcsh/hooks/post/*.sh), once approved, composes with a --hook module", async () => {
			const dir = project({ "emails.ts": REDACT_EMAILS, ".xcsh/hooks/post/*.sh": SHELL_REDACT_KEYS, "secrets.txt": `${SECRET_TEXT}\n` });
			const home = privateHome();
			const approve = await runCli(cli, ["trust", "approve", ".xcsh/hooks/post/*.sh"], dir, { home });
			expect(approve.code).toBe(0);
			const run = await runCli(cli, ["run", "read", "--hook", "emails.ts", "--input", '{"path":"secrets.txt"}'], dir, { home });
			expect({ code: run.code, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({ code: 0, stdout: REDACTED_TEXT, stderr: "" });
		}, 60_000);

		test("emit tool_result prints the merged result", async () => {
			const dir = redactProject();
			const run = await runCli(cli, ["emit", "tool_result", "--no-discovery", "--hook", "keys.ts", "--hook", "emails.ts"], dir, {
				stdin: JSON.stringify(toolResult(SECRET_TEXT)),
			});
			expect(run.code).toBe(0);
			expect(JSON.parse(run.stdout).result).toEqual({ content: [{ type: "text", text: REDACTED_TEXT }] });
		}, 60_000);

		test("serve answers an emit of tool_result with both redactions", async () => {
			const dir = redactProject();
			const served = await serveOnce(cli, ["--hook", "keys.ts", "--hook", "emails.ts"], dir, [
				{ id: 1, method: "emit", params: toolResult(SECRET_TEXT) },
			]);
			expect(answer(served, 1).result.result).toEqual({ content: [{ type: "text", text: REDACTED_TEXT }] });
			expect(served.code).toBe(0);
		}, 60_000);
	});
