/**
 * Hooks cannot hang the CLI or choose its exit code: a factory that never settles becomes a load
 * error after `loadTimeoutMs`; `serve` shuts down even with a request stuck in a handler that never
 * settles; `process.exit` in a handler of a non-tool event does not end `emit` with the hook's code.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, serveCli, useClis } from "./_cli.ts";
import { expectBlockedEmit, expectBlockedRun } from "./_expect.ts";
import { bashCall, marker, privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

const NEVER_LOADS = "export default async function (pi) {\n\tawait new Promise(() => {});\n}\n";
const NEVER_ANSWERS = `export default (pi) => pi.on("tool_call", (event) => (event.input.command === "stuck" ? new Promise(() => {}) : undefined));\n`;

function cells(cli: Cli): void {
	describe("an async factory that never settles, with loadTimeoutMs 300 in the user settings", () => {
		const setup = () => {
			const dir = tempDir("xcsh-faults-life-");
			writeFiles(dir, { "never.ts": NEVER_LOADS });
			return { dir, hook: join(dir, "never.ts"), home: privateHome({ loadTimeoutMs: 300 }) };
		};

		test.concurrent(
			"emit tool_call exits 2 within 5 s, blocked by the load error",
			async () => {
				const { dir, hook, home } = setup();
				const run = await runCli(cli, ["emit", "tool_call", "--hook", hook], { cwd: dir, home, stdin: bashCall("ls"), timeoutMs: 5000 });
				const { loadErrors } = expectBlockedEmit(run, /load/i);
				expect(loadErrors).toMatchObject([{ path: hook }]);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"run bash exits 2 within 5 s and the command never runs",
			async () => {
				const { dir, hook, home } = setup();
				const ran = marker(dir);
				const run = await runCli(cli, ["run", "bash", "--hook", hook, "--input", JSON.stringify({ command: `touch ${ran.path}` })], {
					cwd: dir,
					home,
					timeoutMs: 5000,
				});
				expectBlockedRun(run, /load/i, ran.exists);
			},
			CELL_TIMEOUT_MS,
		);
	});

	test.concurrent(
		"serve with a request stuck in a handler that never settles: stdin closed, it exits non-zero after --shutdown-grace",
		async () => {
			const dir = tempDir("xcsh-faults-life-");
			writeFiles(dir, { "stuck.ts": NEVER_ANSWERS });
			// No handler timeout to rescue the request.
			const server = serveCli(cli, ["--no-watch", "--shutdown-grace", "300", "--hook", join(dir, "stuck.ts")], {
				cwd: dir,
				home: privateHome({ hookTimeoutMs: 60_000 }),
			});
			try {
				server.send(toolCallRequest(1, "ls"), toolCallRequest("stuck", "stuck"));
				expect((await server.response(1)).result).toEqual({ block: false }); // it runs, and reads requests
				await Bun.sleep(100);
				expect(server.lines.find((l) => l.id === "stuck")).toBeUndefined();
			} catch (error) {
				await server.close(1000);
				throw error;
			}
			const closed = await server.close(8000);
			expect(closed.timedOut).toBe(false);
			expect(closed.code).not.toBe(0);
			expect(server.garbage).toEqual([]);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"process.exit(7) in a turn_start handler: emit does not exit 7, it reports the handler error",
		async () => {
			const dir = tempDir("xcsh-faults-life-");
			writeFiles(dir, { "exit7.ts": `export default (pi) => pi.on("turn_start", () => process.exit(7));\n` });
			const run = await runCli(cli, ["emit", "turn_start", "--hook", join(dir, "exit7.ts")], {
				cwd: dir,
				home: privateHome(),
				stdin: JSON.stringify({ turnIndex: 1, timestamp: 0 }),
			});
			expect(run.code).toBe(0);
			const output = JSON.parse(run.stdout);
			expect(output.errors).toMatchObject([{ event: "turn_start", error: expect.stringMatching(/exit/i) }]);
		},
		CELL_TIMEOUT_MS,
	);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
