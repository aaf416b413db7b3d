import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { tempDir, writeFiles } from "../_helpers.ts";
import { expectCleanError, runCli } from "./_run.ts";

const GUARD = `import type { HookAPI } from "xcsh-hooks";
export default function (pi: HookAPI) {
	pi.on("tool_call", (event) => {
		if (event.toolName === "bash" && String(event.input.command ?? "").includes("rm -rf"))
			return { block: true, reason: "blocked by policy" };
	});
	pi.on("session_before_switch", (event) => (event.reason === "new" ? { cancel: true } : undefined));
	pi.on("context", (event) => ({ messages: event.messages.filter((m) => m.role !== "custom") }));
	pi.on("tool_result", (event) => ({ content: event.content.map((c) => (c.type === "text" ? { ...c, text: c.text.replaceAll("hunter2", "***") } : c)) }));
	pi.registerCommand("note", { description: "appends a note", handler: async (args) => pi.appendEntry("note", { args }) });
}
`;

function project(extra: Record<string, string> = {}): string {
	const dir = tempDir();
	writeFiles(dir, { "guard.ts": GUARD, ...extra });
	return dir;
}

describe("emit", () => {
	test("a blocked tool_call exits 2 with the hook's reason; the JSON names event, result, errors, loadErrors", async () => {
		const cwd = project();
		const run = await runCli(["emit", "tool_call", "--hook", "guard.ts"], {
			cwd,
			stdin: '{"toolName":"bash","input":{"command":"rm -rf /"}}',
		});
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("blocked by policy");
		const out = JSON.parse(run.stdout);
		expect(Object.keys(out)).toEqual(["event", "result", "errors", "loadErrors"]);
		expect(out.result).toEqual({ block: true, reason: "blocked by policy" });
		expect(out.event.type).toBe("tool_call");
		expect(out.event.toolCallId).toMatch(/^call_/);
	}, 60_000);

	test("an allowed tool_call exits 0 with a null result", async () => {
		const run = await runCli(["emit", "tool_call", "--hook", "guard.ts", "--data", '{"toolName":"bash","input":{"command":"ls"}}'], {
			cwd: project(),
		});
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout).result).toBeNull();
	}, 60_000);

	test("a cancelled session_before_* exits 2; context is chained; tool_result is rewritten", async () => {
		const cwd = project();
		const cancel = await runCli(["emit", "session_before_switch", "--hook", "guard.ts", "--data", '{"reason":"new"}'], { cwd });
		expect(cancel.code).toBe(2);
		expect(JSON.parse(cancel.stdout).result).toEqual({ cancel: true });
		const messages = [
			{ role: "user", content: "hi" },
			{ role: "custom", customType: "debug", content: "x", display: false },
		];
		const context = await runCli(["emit", "context", "--hook", "guard.ts", "--data", JSON.stringify({ messages })], { cwd });
		expect(JSON.parse(context.stdout).result).toEqual({ messages: [{ role: "user", content: "hi" }] });
		const result = await runCli(["emit", "tool_result", "--hook", "guard.ts"], {
			cwd,
			stdin: JSON.stringify({
				toolName: "read",
				input: {},
				content: [{ type: "text", text: "pw=hunter2" }],
				details: null,
				isError: false,
			}),
		});
		expect(JSON.parse(result.stdout).result.content).toEqual([{ type: "text", text: "pw=***" }]);
	}, 60_000);

	test("a hook that fails to load blocks tool_call unless --allow-load-errors", async () => {
		const cwd = project();
		const data = '{"toolName":"read","input":{}}';
		const blocked = await runCli(["emit", "tool_call", "--hook", "missing.ts", "--data", data], { cwd });
		expect(blocked.code).toBe(2);
		expect(blocked.stderr).toContain("missing.ts");
		expect(JSON.parse(blocked.stdout).loadErrors[0].error).toContain("file not found");
		const allowed = await runCli(["emit", "tool_call", "--hook", "missing.ts", "--allow-load-errors", "--data", data], { cwd });
		expect(allowed.code).toBe(0);
	}, 60_000);

	test("bad input: malformed JSON, empty stdin, unknown type, schema-invalid event, type mismatch", async () => {
		const cwd = project();
		expectCleanError(await runCli(["emit", "tool_call", "--data", "{bad"], { cwd }), 1, "--data is not valid JSON");
		expectCleanError(await runCli(["emit", "tool_call"], { cwd, stdin: "{" }), 1, "stdin is not valid JSON");
		expectCleanError(await runCli(["emit", "tool_call"], { cwd, stdin: "" }), 1, "stdin is empty");
		expectCleanError(await runCli(["emit", "tool_cal", "--data", "{}"], { cwd }), 1, 'unknown event type "tool_cal"', "tool_call");
		expectCleanError(
			await runCli(["emit", "turn_start", "--data", '{"turnIndex":"one","timestamp":1}'], { cwd }),
			1,
			"turn_start.turnIndex",
		);
		expectCleanError(await runCli(["emit", "tool_call", "--data", "[1]"], { cwd }), 1, "must be a JSON object");
		expectCleanError(await runCli(["emit", "tool_call", "--data", '{"type":"agent_start"}'], { cwd }), 1, "does not match");
		expectCleanError(await runCli(["emit"], { cwd }), 1, "TYPE");
	}, 60_000);
});

describe("run", () => {
	test("runs a built-in tool through the hooks: blocked exits 2, allowed prints the output", async () => {
		const cwd = project();
		const blocked = await runCli(["run", "bash", "--hook", "guard.ts", "--input", '{"command":"rm -rf ./x"}'], { cwd });
		expectCleanError(blocked, 2, "blocked by policy");
		writeFiles(cwd, { "secret.txt": "pw=hunter2\n" });
		const read = await runCli(["run", "read", "--hook", "guard.ts", "--input", '{"path":"secret.txt"}'], { cwd });
		expect(read.code).toBe(0);
		expect(read.stdout).toBe("pw=***\n");
	}, 60_000);

	test("bad input: unknown tool, invalid input naming the field, failing tool", async () => {
		const cwd = project();
		expectCleanError(await runCli(["run", "rm", "--input", "{}"], { cwd }), 1, 'unknown tool "rm"', "bash, read, write, edit");
		expectCleanError(await runCli(["run", "bash", "--input", '{"command":1}'], { cwd }), 1, "input.command");
		expectCleanError(await runCli(["run", "read", "--input", '{"path":"nope.txt"}'], { cwd }), 1, "nope.txt");
	}, 60_000);
});

describe("command, check, schema, list, trust", () => {
	test("command runs a hook's slash command and its entry lands in the session file", async () => {
		const cwd = project();
		const session = join(cwd, "session.jsonl");
		const run = await runCli(["command", "--hook", "guard.ts", "--session", session, "note", "ship", "--dry-run", "it"], { cwd });
		expect(run.code).toBe(0);
		const lines = readFileSync(session, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(lines.at(-1)).toMatchObject({ type: "custom", customType: "note", data: { args: "ship --dry-run it" } });
		expectCleanError(await runCli(["command", "--hook", "guard.ts", "nope"], { cwd }), 1, "/nope", "/note");
		expectCleanError(await runCli(["command", "--hook", "missing.ts", "note"], { cwd }), 1, "missing.ts", "Failed to load hook");
	}, 60_000);

	test("check reports events and commands; a load error names the file and exits 1", async () => {
		const cwd = project({ "broken.ts": "export default 42;" });
		const ok = await runCli(["check", "--hook", "guard.ts"], { cwd });
		expect(ok.code).toBe(0);
		expect(ok.stdout).toContain("tool_call");
		expect(ok.stdout).toContain("/note");
		const bad = await runCli(["check", "--hook", "guard.ts", "--hook", "broken.ts"], { cwd });
		expect(bad.code).toBe(1);
		expect(bad.stdout).toContain("broken.ts");
		expect(bad.stdout).toContain("Hook must export a default function");
	}, 60_000);

	test("schema prints JSON Schema; an unknown type exits 1", async () => {
		const run = await runCli(["schema", "tool_call"]);
		expect(run.code).toBe(0);
		expect(JSON.parse(run.stdout).event.properties.toolName.type).toBe("string");
		expectCleanError(await runCli(["schema", "nope"]), 1, 'unknown event type "nope"');
	}, 60_000);

	test("project hooks need approval: list shows them untrusted, trust approve lets them run", async () => {
		const cwd = tempDir();
		const home = tempDir("xcsh-hooks-home-");
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": GUARD });
		const data = ["--data", '{"toolName":"bash","input":{"command":"rm -rf /"}}'];
		const list = await runCli(["list"], { cwd, home });
		expect(list.stdout).toMatch(/^not approved\s+project\s+\.xcsh\/hooks\/guard\.ts$/m);
		expect(list.stdout).toContain("Approve with: xcsh-hooks trust approve .xcsh/hooks/guard.ts");
		const skipped = await runCli(["emit", "tool_call", ...data], { cwd, home });
		expect(skipped.code).toBe(0);
		expect(skipped.stderr).toContain("xcsh-hooks trust approve");
		expect((await runCli(["trust", "approve", ".xcsh/hooks/guard.ts"], { cwd, home })).code).toBe(0);
		expect((await runCli(["emit", "tool_call", ...data], { cwd, home })).code).toBe(2);
		expectCleanError(await runCli(["trust", "approve", "nope.ts"], { cwd, home }), 1, "nope.ts");
		expectCleanError(await runCli(["trust", "bless"], { cwd, home }), 1, 'unknown action "bless"');
	}, 60_000);
});

describe("the CLI itself", () => {
	test("unknown command, --help, --version", async () => {
		expectCleanError(await runCli(["frobnicate"]), 1, 'unknown command "frobnicate"');
		const help = await runCli(["--help"]);
		expect(help.code).toBe(0);
		expect(help.stdout).toContain("emit");
		expect((await runCli(["emit", "--help"])).stdout).toContain("--allow-load-errors");
		expect((await runCli(["--version"])).stdout.trim()).toMatch(/^xcsh-hooks \d+\.\d+\.\d+ \(Bun \d+\.\d+\.\d+\)$/);
	}, 60_000);

	test("in-process main resolves exit codes", async () => {
		expect(await main(["schema", "nope"])).toBe(1);
		expect(await main(["frobnicate"])).toBe(1);
		expect(existsSync(join(process.env.HOME as string, ".xcsh", "agent", "trust.json"))).toBe(false);
	}, 60_000);
});
