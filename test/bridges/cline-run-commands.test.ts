/**
 * Cline's `run_commands` in every input form Cline accepts (cline/cline `RunCommandsInputUnionSchema`)
 * reaches hooks as the `bash` call of the string-list form, so a bash guard blocks it; an input Cline
 * would not run is denied with the reason, never handed to the hooks unmapped.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { runCommandLines } from "../../src/agents/cline/commands.ts";
import { answerOf, CLI, fixture, type Run, spawnRun, workspace } from "./_bridge.ts";

let ws: ReturnType<typeof workspace>;
beforeAll(() => {
	ws = workspace();
	writeFileSync(
		ws.hook("seen.ts"),
		`export default (pi) => pi.on("tool_result", (e) => ({ content: [{ type: "text", text: "SAW " + e.toolName + ": " + e.input.command }] }));\n`,
	);
});

/** The real PreToolUse capture (or `file`) with `tool_call.input` (and `name`) replaced. */
function payload(input: unknown, name = "run_commands", file = "PreToolUse.json", key = "tool_call"): Record<string, unknown> {
	const p = fixture("cline", file, ws.project);
	p[key] = { ...(p[key] as Record<string, unknown>), name, input };
	return p;
}

const bridge = (p: unknown, event = "PreToolUse", hooks = ["policy.ts"]): Promise<Run> =>
	spawnRun(
		[process.execPath, CLI, "bridge", "cline", "--no-discovery", ...hooks.flatMap((h) => ["--hook", ws.hook(h)]), "--event", event],
		{
			stdin: JSON.stringify(p),
			home: ws.home,
			cwd: ws.project,
		},
	);

/** The bridge's run_commands deny: a command that only prints the reason, and the reason as context. */
function expectDenied(run: Run, ...needles: string[]): void {
	const answer = answerOf(run) as Record<string, unknown>;
	expect(answer).toEqual({ overrideInput: { commands: [expect.any(String)] }, contextModification: expect.any(String) });
	for (const needle of needles) expect(String(answer.contextModification)).toContain(needle);
}

const rmArgv = { command: "rm", args: ["-rf", "build"] };

describe("Cline run_commands: every accepted form reaches a bash guard", () => {
	const forms: Array<[string, unknown]> = [
		["{commands: string[]} (the captured form)", { commands: ["rm -rf build"] }],
		["{commands: string}", { commands: "rm -rf build" }],
		["a bare string", "rm -rf build"],
		["a bare string list", ["ls", "rm -rf build"]],
		["{commands: [string, {command, args}]}", { commands: ["ls", rmArgv] }],
		["{commands: [{command}]} (a whole command line)", { commands: [{ command: "rm -rf build" }] }],
		["{commands: {command, args}}", { commands: rmArgv }],
		["a bare [{command, args}] list", [{ command: "ls" }, rmArgv]],
		["{command, args}", { ...rmArgv, requires_approval: false }],
		["{command}", { command: "rm -rf build" }],
		["{cmd}", { cmd: "rm -rf build" }],
	];
	for (const [label, input] of forms)
		test(`${label}: blocked by the bash guard`, async () => {
			expectDenied(await bridge(payload(input)), "POLICY: rm -rf is not allowed", "policy.ts");
		}, 60_000);

	test("an argv the guard does not object to gets no opinion", async () => {
		expect(answerOf(await bridge(payload({ commands: [{ command: "ls", args: ["build"] }] })))).toBeUndefined();
	}, 60_000);

	test("PostToolUse: the hooks see the bash call of a {command, args} input", async () => {
		const p = payload({ commands: [rmArgv] }, "run_commands", "PostToolUse.json", "tool_result");
		expect(answerOf(await bridge(p, "PostToolUse", ["seen.ts"]))).toEqual({
			contextModification: expect.stringContaining("SAW bash: rm -rf build"),
		});
	}, 60_000);
});

describe("Cline run_commands: an input Cline would not run is denied, naming what is wrong", () => {
	test("an entry whose args is not a list", async () => {
		const run = await bridge(payload({ commands: ["ls", { command: "rm", args: "-rf build" }] }));
		expectDenied(run, "run_commands input is not a form Cline runs", "commands[1]", "(fail closed)");
		expect(JSON.stringify(answerOf(run))).not.toContain("POLICY"); // the hooks never saw it
		expect(run.stderr).toContain("the tool call is denied (fail closed)");
	}, 60_000);

	test("a bare list mixing strings and {command, args}", async () => {
		expectDenied(await bridge(payload(["ls", rmArgv])), "only command strings or only {command, args?} objects");
	}, 60_000);

	test("another tool's input that is no object: cancel with the reason", async () => {
		const answer = answerOf(await bridge(payload("src/index.ts", "read_files")));
		expect(answer).toEqual({ cancel: true, errorMessage: expect.stringContaining("the input of read_files is not an object") });
	}, 60_000);
});

describe("runCommandLines: the shell lines hooks see", () => {
	test("argv is quoted as the shell would need it; plain words stay as Cline shows them", () => {
		expect(runCommandLines({ commands: [rmArgv] })).toEqual({ lines: ["rm -rf build"] });
		expect(runCommandLines({ command: "echo", args: ["a b", "it's", ";rm", "", "$(x)"] })).toEqual({
			lines: [`echo 'a b' 'it'\\''s' ';rm' '' '$(x)'`],
		});
		expect(runCommandLines({ command: "A=1", args: ["x=y"] })).toEqual({ lines: ["'A=1' x=y"] });
		expect(runCommandLines({ commands: [{ command: "ls -la" }] })).toEqual({ lines: ["ls -la"] });
	});
	test("Cline's union order: the first form that fits wins", () => {
		expect(runCommandLines({ commands: 5, command: "ls" })).toEqual({ lines: ["ls"] });
		expect(runCommandLines({ command: "rm -rf build", args: "bad" })).toEqual({ lines: ["rm -rf build"] });
		expect(runCommandLines({ command: 5, cmd: "pwd" })).toEqual({ lines: ["pwd"] });
		expect(runCommandLines({ commands: [] })).toEqual({ lines: [] });
	});
	test("forms Cline refuses name the part at fault", () => {
		expect(runCommandLines(42)).toEqual({ problem: expect.stringContaining("got 42") });
		expect(runCommandLines({ files: [] })).toEqual({ problem: expect.stringContaining("no commands, command or cmd field") });
		expect(runCommandLines({ commands: [{ command: "" }] })).toEqual({ problem: expect.stringContaining("commands[0]") });
		expect(runCommandLines([1])).toEqual({ problem: expect.stringContaining("item 0") });
	});
});
