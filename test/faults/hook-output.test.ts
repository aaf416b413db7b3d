/**
 * What hooks print. A shell pre hook whose stdout is torn, garbage after `{`, or cut at the output cap
 * is an error, never "allow" (docs/contract.md#shell-hooks). A module hook's writes to stdout never reach a
 * machine-read stream: `emit` prints one JSON document, `serve` only NDJSON lines; the noise goes
 * to stderr (docs/contract.md#trust).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, serveCli, useClis, withServer } from "./_cli.ts";
import { expectBlockedEmit, expectBlockedRun, expectServeBlock } from "./_expect.ts";
import { bashCall, marker, privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

/** Shell pre hooks for `bash` that exit 0 with output a guard must not read as "allow". */
const SHELL_OUTPUTS = [
	{ name: "a torn JSON object", script: `printf '%s' '{"block":true,"reason":"x"'` },
	{ name: "a { followed by garbage", script: `printf '%s\\n' '{ this is not json at all'` },
];

/** 50 MiB (the output cap, not configurable for shell hooks) of blanks, then the block: the block is past the cap. */
const PADDED = `head -c ${50 * 1024 * 1024 + 4096} /dev/zero | tr '\\0' ' '\nprintf '%s' '{"block":true,"reason":"past the cap"}'`;

/** A private HOME with the user-level shell hook `~/.xcsh/agent/hooks/pre/bash.sh` running `script`. */
function homeWithShellHook(script: string): string {
	const home = privateHome();
	writeFiles(home, { ".xcsh/agent/hooks/pre/bash.sh": `#!/bin/sh\ncat > /dev/null\n${script}\nexit 0\n` });
	return home;
}

const NOISY = `console.log("noise-import");
export default function (pi) {
	pi.on("tool_call", async () => {
		console.log("noise-log");
		process.stdout.write("noise-write");
		await Bun.write(Bun.stdout, "noise-bun");
		return { block: true, reason: "noisy guard" };
	});
}
`;
const NOISES = ["noise-import", "noise-log", "noise-write", "noise-bun"];

function cells(cli: Cli): void {
	for (const output of SHELL_OUTPUTS)
		describe(`a shell pre hook that exits 0 printing ${output.name}`, () => {
			test.concurrent(
				"emit tool_call is blocked, the reason naming the hook",
				async () => {
					const run = await runCli(cli, ["emit", "tool_call"], {
						cwd: tempDir(),
						home: homeWithShellHook(output.script),
						stdin: bashCall("touch x"),
					});
					expectBlockedEmit(run, "bash.sh");
				},
				CELL_TIMEOUT_MS,
			);

			test.concurrent(
				"run bash is blocked and the command never runs",
				async () => {
					const ran = marker(tempDir());
					const run = await runCli(cli, ["run", "bash", "--input", JSON.stringify({ command: `touch ${ran.path}` })], {
						cwd: tempDir(),
						home: homeWithShellHook(output.script),
					});
					expectBlockedRun(run, "bash.sh", ran.exists);
				},
				CELL_TIMEOUT_MS,
			);
		});

	test.concurrent(
		"a shell pre hook printing its block after 50 MiB of padding (past the output cap): emit tool_call is blocked",
		async () => {
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: tempDir(), home: homeWithShellHook(PADDED), stdin: bashCall("touch x") });
			expectBlockedEmit(run, "bash.sh");
		},
		CELL_TIMEOUT_MS,
	);

	describe("a hook writing to stdout with console.log, process.stdout.write (no newline) and Bun.write(Bun.stdout)", () => {
		test.concurrent(
			"emit: stdout is exactly one JSON document; the noise is on stderr",
			async () => {
				const dir = tempDir();
				writeFiles(dir, { "noisy.ts": NOISY });
				const run = await runCli(cli, ["emit", "tool_call", "--hook", join(dir, "noisy.ts")], {
					cwd: dir,
					home: privateHome(),
					stdin: bashCall("ls"),
				});
				expectBlockedEmit(run, "noisy guard");
				for (const noise of NOISES) {
					expect(run.stdout).not.toContain(noise);
					expect(run.stderr).toContain(noise);
				}
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"serve: every stdout line is JSON, the call is answered, the noise is on stderr",
			async () => {
				const dir = tempDir();
				writeFiles(dir, { "noisy.ts": NOISY });
				const server = serveCli(cli, ["--no-watch", "--hook", join(dir, "noisy.ts")], { cwd: dir, home: privateHome() });
				await withServer(server, async () => {
					server.send(toolCallRequest(1, "ls"), toolCallRequest(2, "ls"));
					expectServeBlock(await server.response(1), "noisy guard");
					expectServeBlock(await server.response(2), "noisy guard");
				});
				for (const noise of NOISES) expect(server.stderr()).toContain(noise);
			},
			CELL_TIMEOUT_MS,
		);
	});
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
