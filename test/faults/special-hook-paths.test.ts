/**
 * A hook path that is not a regular file — a directory, a FIFO — is never imported (docs/contract.md#trust):
 * it is a load error naming the path, so `tool_call` is blocked; approving it is refused; nothing hangs.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectBlockedEmit, expectCleanFailure } from "./_expect.ts";
import { bashCall, fileKind, marker, mkfifo, privateHome, tempDir, touch, writeFiles } from "./_fixtures.ts";

const NOT_A_FILE = /not a regular file|is a directory|not a file|is a fifo/i;

/** A project whose settings list `./evil.ts`: a directory whose index.ts would leave a marker, or a FIFO. */
function evilProject(kind: "directory" | "fifo") {
	const dir = tempDir("xcsh-faults-evil-");
	const ran = marker(dir);
	const evil = join(dir, "evil.ts");
	writeFiles(dir, { ".xcsh/settings.json": JSON.stringify({ hooks: ["./evil.ts"] }) });
	if (kind === "fifo") mkfifo(evil);
	else writeFiles(evil, { "index.ts": `${touch(ran.path)}\nexport default (pi) => pi.on("tool_call", () => undefined);\n` });
	return { dir, ran, evil };
}

function cells(cli: Cli): void {
	describe('a project settings hook "./evil.ts" that is a directory holding index.ts', () => {
		test.concurrent(
			"emit tool_call is blocked with a load error naming the path, and index.ts never runs",
			async () => {
				const p = evilProject("directory");
				const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: privateHome(), stdin: bashCall("ls"), timeoutMs: 8000 });
				expect(p.ran.exists()).toBe(false);
				const { result } = expectBlockedEmit(run, "evil.ts");
				expect(result.reason).toMatch(NOT_A_FILE);
				expect(p.ran.exists()).toBe(false);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"trust approve ./evil.ts exits 1 with one line naming it; nothing was approved, so emit still refuses it",
			async () => {
				const { dir, ran } = evilProject("directory");
				const home = privateHome();
				const run = await runCli(cli, ["trust", "approve", "./evil.ts"], { cwd: dir, home, timeoutMs: 8000 });
				expectCleanFailure(run, 1, "evil.ts");
				// Nothing was approved: the next emit still refuses it.
				const emit = await runCli(cli, ["emit", "tool_call"], { cwd: dir, home, stdin: bashCall("ls"), timeoutMs: 8000 });
				expectBlockedEmit(emit, "evil.ts");
				expect(ran.exists()).toBe(false);
			},
			CELL_TIMEOUT_MS,
		);
	});

	describe('a project settings hook "./evil.ts" that is a FIFO', () => {
		test.concurrent(
			"emit tool_call does not hang: blocked with a load error naming the path; the FIFO stays a FIFO",
			async () => {
				const p = evilProject("fifo");
				const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: privateHome(), stdin: bashCall("ls"), timeoutMs: 5000 });
				const { result } = expectBlockedEmit(run, "evil.ts");
				expect(result.reason).toMatch(NOT_A_FILE);
				expect(fileKind(p.evil)).toBe("fifo");
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"trust approve ./evil.ts does not hang: exit 1 with one line naming it",
			async () => {
				const p = evilProject("fifo");
				const run = await runCli(cli, ["trust", "approve", "./evil.ts"], { cwd: p.dir, home: privateHome(), timeoutMs: 5000 });
				expectCleanFailure(run, 1, "evil.ts");
				expect(fileKind(p.evil)).toBe("fifo");
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a FIFO given with --hook does not hang either: blocked, naming it",
			async () => {
				const dir = tempDir("xcsh-faults-evil-");
				mkfifo(join(dir, "fifo.ts"));
				const run = await runCli(cli, ["emit", "tool_call", "--hook", "./fifo.ts"], {
					cwd: dir,
					home: privateHome(),
					stdin: bashCall("ls"),
					timeoutMs: 5000,
				});
				const { result } = expectBlockedEmit(run, "fifo.ts");
				expect(result.reason).toMatch(NOT_A_FILE);
			},
			CELL_TIMEOUT_MS,
		);
	});
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
