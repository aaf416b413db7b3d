/**
 * Bad input is refused quickly with exit 1 and one line naming what is wrong (docs/contract.md#cli): invalid
 * UTF-8 on stdin (the byte offset), JSON nested 100,000 deep (the nesting limit), and `--cwd` or
 * `--session` naming a FIFO or a directory — without ever blocking on the FIFO.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectCleanFailure } from "./_expect.ts";
import { bashCall, fileKind, mkfifo, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const DEEP = 100_000;
const NESTING = /nest|depth|deep/i;

/** A tool_call event with one byte that is not UTF-8 inside the command string; returns the bytes and that byte's offset. */
function invalidUtf8Event(): { bytes: Uint8Array; offset: number } {
	const before = new TextEncoder().encode('{"toolName":"bash","input":{"command":"echo caf');
	const after = new TextEncoder().encode('"}}');
	const bytes = new Uint8Array([...before, 0xff, ...after]);
	return { bytes, offset: before.length };
}

function cells(cli: Cli): void {
	test.concurrent(
		"invalid UTF-8 on stdin for emit tool_call: exit 1, the message names the byte offset",
		async () => {
			const { bytes, offset } = invalidUtf8Event();
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: tempDir(), home: privateHome(), stdin: bytes, timeoutMs: 5000 });
			expectCleanFailure(run, 1, /utf-?8/i);
			// The offset of the bad byte, counted from 0 (or from 1, as editors do).
			expect(run.stderr).toMatch(new RegExp(`\\b(${offset}|${offset + 1})\\b`));
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		`stdin "[" × ${DEEP.toLocaleString("en")} for emit tool_call: exit 1 within 5 s, naming the nesting limit`,
		async () => {
			const run = await runCli(cli, ["emit", "tool_call"], {
				cwd: tempDir(),
				home: privateHome(),
				stdin: "[".repeat(DEEP),
				timeoutMs: 5000,
			});
			expectCleanFailure(run, 1, NESTING);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		`a valid event whose input is nested ${DEEP.toLocaleString("en")} deep: exit 1 within 5 s, naming the nesting limit`,
		async () => {
			const stdin = `{"toolName":"bash","input":{"command":"ls","deep":${"[".repeat(DEEP)}${"]".repeat(DEEP)}}}`;
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: tempDir(), home: privateHome(), stdin, timeoutMs: 5000 });
			expectCleanFailure(run, 1, NESTING);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"--cwd naming a FIFO: exit 1, not a directory",
		async () => {
			const dir = tempDir();
			mkfifo(join(dir, "pipe"));
			const run = await runCli(cli, ["emit", "tool_call", "--cwd", join(dir, "pipe")], {
				cwd: dir,
				home: privateHome(),
				stdin: bashCall("ls"),
				timeoutMs: 5000,
			});
			expectCleanFailure(run, 1, "not a directory");
			expect(run.stderr).toContain(join(dir, "pipe"));
		},
		CELL_TIMEOUT_MS,
	);

	describe("--session naming something that is not a regular file", () => {
		/** A hook that writes to the session on every turn_start. */
		const appender = (dir: string) => {
			writeFiles(dir, { "appender.ts": `export default (pi) => pi.on("turn_start", () => pi.appendEntry("probe", { ok: true }));\n` });
			return join(dir, "appender.ts");
		};
		const emitTurn = (dir: string, session: string) =>
			runCli(cli, ["emit", "turn_start", "--session", session, "--hook", appender(dir)], {
				cwd: dir,
				home: privateHome(),
				stdin: JSON.stringify({ turnIndex: 1, timestamp: 0 }),
				timeoutMs: 5000,
			});

		test.concurrent(
			"a FIFO: refused with exit 1 naming it, no hang, still a FIFO",
			async () => {
				const dir = tempDir();
				const session = join(dir, "session.jsonl");
				mkfifo(session);
				const run = await emitTurn(dir, session);
				expectCleanFailure(run, 1, session);
				expect(fileKind(session)).toBe("fifo");
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a directory: refused with exit 1 naming it",
			async () => {
				const dir = tempDir();
				const session = join(dir, "sessions");
				mkdirSync(session);
				const run = await emitTurn(dir, session);
				expectCleanFailure(run, 1, session);
			},
			CELL_TIMEOUT_MS,
		);
	});
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
