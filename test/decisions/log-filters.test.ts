/**
 * `xcsh-hooks log` as a user reads a long log: the last 20 at a terminal, `-n`, `--since`, `--agent`,
 * `--decision`, the rotated previous file read first, and `--json` as JSON Lines — through both CLIs.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decisionLine } from "../../src/decisions/index.ts";
import { type Cli, runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const MINUTE = 60_000;

/** 30 entries, one a minute, the last one minute ago: claude and gemini in turn; every third a deny. */
function entries(now = Date.now()): string[] {
	return Array.from({ length: 30 }, (_, i) =>
		decisionLine({
			time: new Date(now - (30 - i) * MINUTE).toISOString(),
			agent: i % 2 === 0 ? "claude" : "gemini",
			session: `session-${i}`,
			event: "PreToolUse",
			tool: "Bash",
			decision: i % 3 === 0 ? "deny" : "allow",
			reason: i % 3 === 0 ? `NO ${i}` : undefined,
		}),
	);
}

function homeWithLog(previous: string[], current: string[]): { home: string; file: string } {
	const home = tempDir("xcsh-log-filters-");
	mkdirSync(join(home, ".xcsh/agent"), { recursive: true });
	const file = join(home, ".xcsh/agent/decisions.jsonl");
	if (previous.length) writeFileSync(`${file}.1`, previous.join(""));
	writeFileSync(file, current.join(""));
	return { home, file };
}

/** The sessions of `log --json`'s lines, each line parsed on its own (JSON Lines). */
async function sessions(cli: Cli, home: string, args: string[]): Promise<string[]> {
	const run = await runCli(cli, ["log", "--json", ...args], { cwd: home, home, timeoutMs: 30_000 });
	expect(run.code).toBe(0);
	return run.stdout
		.split("\n")
		.filter(Boolean)
		.map((line) => (JSON.parse(line) as { session: string }).session);
}

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `session-${from + i}`);

/** `log` on a terminal (a pty of 100 columns): what the user sees. */
async function onTerminal(cli: Cli, home: string): Promise<string> {
	let out = "";
	const proc = Bun.spawn(cli.argv(["log"]), {
		cwd: home,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
		timeout: 30_000,
		terminal: { cols: 100, rows: 40, data: (_t, data) => void (out += new TextDecoder().decode(data)) },
	});
	await proc.exited;
	proc.terminal?.close();
	return out;
}

for (const cli of useClis()) {
	describe(cli.name, () => {
		test("a pipe gets every entry, the rotated file's first; -n keeps the last N; -n all", async () => {
			const all = entries();
			const { home } = homeWithLog(all.slice(0, 12), all.slice(12));
			expect(await sessions(cli, home, [])).toEqual(ids(0, 30));
			expect(await sessions(cli, home, ["-n", "5"])).toEqual(ids(25, 30));
			expect(await sessions(cli, home, ["--lines", "all"])).toEqual(ids(0, 30));
			const bad = await runCli(cli, ["log", "-n", "-3"], { cwd: home, home });
			expect(bad.code).toBe(1);
			expect(bad.stderr).toContain("expected a positive number");
		}, 90_000);

		test("at a terminal the last 20 entries are shown", async () => {
			const { home } = homeWithLog([], entries());
			const screen = await onTerminal(cli, home);
			const shown = screen.split(/\r?\n/).filter((line) => line.includes("PreToolUse/Bash"));
			expect(shown).toHaveLength(20);
			expect(screen).toContain('"NO 27"');
			expect(screen).not.toContain('"NO 9"');
		}, 60_000);

		test("--since takes a duration or a date; --agent and --decision filter; filters combine with -n", async () => {
			const { home } = homeWithLog([], entries());
			expect(await sessions(cli, home, ["--since", "5m"])).toEqual(ids(26, 30));
			expect(await sessions(cli, home, ["--since", "2h"])).toEqual(ids(0, 30));
			expect(await sessions(cli, home, ["--since", new Date(Date.now() - 3.5 * MINUTE).toISOString()])).toEqual(ids(27, 30));
			expect(await sessions(cli, home, ["--since", "2000-01-01"])).toHaveLength(30);
			expect(await sessions(cli, home, ["--agent", "gemini", "-n", "2"])).toEqual(["session-27", "session-29"]);
			expect(await sessions(cli, home, ["--decision", "deny", "--agent", "claude"])).toEqual([
				"session-0",
				"session-6",
				"session-12",
				"session-18",
				"session-24",
			]);
			const bad = await runCli(cli, ["log", "--since", "yesterday"], { cwd: home, home });
			expect(bad.code).toBe(1);
			expect(bad.stderr).toContain("expected a duration (30s, 10m, 2h, 1d, 1w) or a date");
			const none = await runCli(cli, ["log", "--agent", "codex"], { cwd: home, home });
			expect(none.stdout).toContain("No decisions for agent codex");
		}, 90_000);
	});
}
