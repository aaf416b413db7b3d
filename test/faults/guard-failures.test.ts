/**
 * A guard that fails in any way blocks the call (docs/contract.md#the-tool-wrapper, #cli): every failure mode of a `tool_call`
 * hook × every surface that gates a call (`emit tool_call`, `run bash`, `serve` toolCall) × both CLIs.
 * Each cell: blocked, the right exit code or answer, a one-line reason, and the tool did not run.
 */
import { beforeAll, describe, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, serveCli, useClis, withServer } from "./_cli.ts";
import { expectBlockedEmit, expectBlockedRun, expectServeBlock } from "./_expect.ts";
import { bashCall, guardOn, marker, privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

interface Mode {
	/** What the guard does, as a user would say it. */
	name: string;
	file: string;
	source: string;
	settings?: Record<string, unknown>;
	reason: string | RegExp;
	/** The fault is in the factory: the hook fails to load, so every call (even `ls`) is blocked. */
	atLoad?: boolean;
}

const UNPRINTABLE = "Hook failed, blocking execution: <unprintable>";

const MODES: Mode[] = [
	{ name: "throws an Error", file: "error.ts", source: guardOn(`throw new Error("guard exploded");`), reason: "guard exploded" },
	{ name: "throws 42", file: "number.ts", source: guardOn("throw 42;"), reason: "Hook failed, blocking execution: 42" },
	{ name: 'throws the string "x"', file: "string.ts", source: guardOn(`throw "x";`), reason: "Hook failed, blocking execution: x" },
	{ name: "throws Object.create(null)", file: "null-proto.ts", source: guardOn("throw Object.create(null);"), reason: UNPRINTABLE },
	{
		name: "throws an object whose toString throws",
		file: "bad-tostring.ts",
		source: guardOn(`throw { toString() { throw new Error("cannot print me"); } };`),
		reason: UNPRINTABLE,
	},
	{
		name: "returns a rejected promise",
		file: "rejected.ts",
		source: guardOn(`return Promise.reject(new Error("guard rejected"));`),
		reason: "guard rejected",
	},
	{
		name: "takes longer than hookTimeoutMs 200",
		file: "slow.ts",
		source: guardOn("return Bun.sleep(5000);"),
		settings: { hookTimeoutMs: 200 },
		reason: /timed out after 200 ms/,
	},
	{
		name: "returns a promise that never settles (hookTimeoutMs 300)",
		file: "never.ts",
		source: guardOn("return new Promise(() => {});"),
		settings: { hookTimeoutMs: 300 },
		reason: /timed out after 300 ms/,
	},
	{ name: "calls process.exit(0) in its handler", file: "exit-handler.ts", source: guardOn("process.exit(0);"), reason: /process\.exit/ },
	{
		name: "calls process.reallyExit(0) (the door process.exit goes through) in its handler",
		file: "really-exit-handler.ts",
		source: guardOn("process.reallyExit(0);"),
		reason: /process\.exit/,
	},
	{
		name: "calls process.exit(0) in its factory",
		file: "exit-factory.ts",
		source: "export default function (pi) {\n\tprocess.exit(0);\n}\n",
		reason: /failed to load.*exit-factory\.ts/i,
		atLoad: true,
	},
	{
		name: 'returns {block: "yes"}',
		file: "block-yes.ts",
		source: guardOn(`return { block: "yes" };`),
		reason: /block-yes\.ts.*tool_call.*block/,
	},
	{
		name: "returns {block: true, reason: 42}",
		file: "reason-42.ts",
		source: guardOn("return { block: true, reason: 42 };"),
		reason: /reason-42\.ts.*tool_call.*reason/,
	},
	{
		name: "returns the typo {blok: true}",
		file: "blok.ts",
		source: guardOn("return { blok: true };"),
		reason: /blok\.ts.*tool_call.*blok/,
	},
];

const CLIS = useClis();
let project: string;

beforeAll(() => {
	project = tempDir("xcsh-faults-guards-");
	writeFiles(project, Object.fromEntries(MODES.map((m) => [m.file, m.source])));
});

function cells(cli: Cli, mode: Mode): void {
	const hook = () => join(project, mode.file);

	test.concurrent(
		"emit tool_call: exit 2, only the JSON result on stdout, only the one-line reason on stderr",
		async () => {
			const run = await runCli(cli, ["emit", "tool_call", "--hook", hook()], {
				cwd: project,
				home: privateHome(mode.settings),
				stdin: bashCall(`touch ${join(tempDir(), "MARKER")}`),
			});
			expectBlockedEmit(run, mode.reason, { onlyReason: true });
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"run bash: exit 2, `blocked: <reason>` on stderr, the command never ran",
		async () => {
			const ran = marker(tempDir());
			const run = await runCli(cli, ["run", "bash", "--hook", hook(), "--input", JSON.stringify({ command: `touch ${ran.path}` })], {
				cwd: project,
				home: privateHome(mode.settings),
			});
			expectBlockedRun(run, mode.reason, ran.exists, { onlyReason: !mode.atLoad });
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"serve toolCall: answered {block: true, reason}, and the next request is still served",
		async () => {
			const server = serveCli(cli, ["--no-watch", "--hook", hook()], { cwd: project, home: privateHome(mode.settings) });
			await withServer(server, async () => {
				server.send(toolCallRequest(1, `touch ${join(tempDir(), "MARKER")}`), toolCallRequest(2, "ls"));
				expectServeBlock(await server.response(1), mode.reason);
				const next = await server.response(2);
				if (mode.atLoad) expectServeBlock(next, mode.reason);
				else if (next.result?.block !== false)
					throw new Error(`the harmless call after the fault was not allowed: ${JSON.stringify(next)}`);
			});
		},
		CELL_TIMEOUT_MS,
	);
}

for (const cli of CLIS)
	describe(cli.name, () => {
		for (const mode of MODES) describe(`a guard that ${mode.name}`, () => cells(cli, mode));
	});
