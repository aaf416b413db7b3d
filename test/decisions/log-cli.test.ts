import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decisionLine } from "../../src/decisions/index.ts";
import { tempDir } from "../_helpers.ts";
import { CLI, runCli } from "../cli/_run.ts";

const DENY = decisionLine({
	time: "2026-12-01T08:33:22.123Z",
	agent: "claude",
	session: "9e707540-b1bf-4c1e",
	event: "PreToolUse",
	tool: "Bash",
	decision: "deny",
	reason: "rm -rf is not allowed",
	hook: "/p/.xcsh/hooks/guard.ts",
	durationMs: 4,
});
const ALLOW = decisionLine({
	time: "2026-12-01T08:34:00.000Z",
	agent: "gemini",
	session: "43f16b31-13db",
	event: "BeforeTool",
	tool: "read_file",
	decision: "allow",
});

/** A HOME with a decision log holding `lines`. */
function homeWithLog(...lines: string[]): { home: string; file: string } {
	const home = tempDir();
	mkdirSync(join(home, ".xcsh/agent"), { recursive: true });
	const file = join(home, ".xcsh/agent/decisions.jsonl");
	writeFileSync(file, lines.join(""));
	return { home, file };
}

describe("xcsh-hooks log", () => {
	test("a missing log is a friendly line and exit 0", async () => {
		const run = await runCli(["log"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("No decisions logged yet");
	}, 60_000);

	test("prints one readable line per decision: time, agent, short session, event/tool, decision, reason, hook", async () => {
		const { home } = homeWithLog(DENY, ALLOW);
		const run = await runCli(["log"], { home });
		expect(run.code).toBe(0);
		// An entry's reason and hook carry on below its columns when the line would pass 80 columns.
		const lines = run.stdout.trimEnd().replaceAll("\n    ", " ").split("\n");
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(
			/^2026-12-01 08:33:22 +claude +9e707540 +PreToolUse\/Bash +deny +4ms "rm -rf is not allowed" \(\/p\/\.xcsh\/hooks\/guard\.ts\)$/,
		);
		expect(lines[1]).toContain("gemini");
		expect(lines[1]).toContain("BeforeTool/read_file");
		expect(lines[1]).toContain("allow");
	}, 60_000);

	test("every line fits 80 columns: a long reason and hook wrap, indented, below the entry's columns", async () => {
		const long = decisionLine({
			time: "2026-12-01T08:35:00.000Z",
			agent: "codex",
			session: "0b8c2d7e-77aa",
			event: "PermissionRequest",
			tool: "mcp__github__create_pull_request",
			decision: "deny",
			reason: "blocked a force push without --force-with-lease: it can overwrite commits a teammate pushed meanwhile [git.force-push]",
			hook: "/home/someone/work/a-project-with-a-long-name/.xcsh/hooks/team-guard.ts",
			durationMs: 12,
		});
		const { home } = homeWithLog(DENY, ALLOW, long);
		const run = await runCli(["log"], { home });
		expect(run.code).toBe(0);
		const lines = run.stdout.trimEnd().split("\n");
		expect(lines.filter((line) => Bun.stringWidth(line) > 80)).toEqual([]);
		// Each entry starts unindented with its time; what carries on is indented.
		expect(lines.filter((line) => /^2026-12-01 /.test(line))).toHaveLength(3);
		expect(lines.filter((line) => !/^2026-12-01 /.test(line)).every((line) => line.startsWith("    "))).toBe(true);
		expect(run.stdout.replaceAll("\n    ", " ")).toContain('[git.force-push]" (/home/someone/work/a-project-with-a-long-name/');
	}, 60_000);

	test("--json prints the stored lines as they are; --session filters by id or its start", async () => {
		const { home } = homeWithLog(DENY, ALLOW);
		const json = await runCli(["log", "--json"], { home });
		expect(json.stdout).toBe(DENY + ALLOW);
		const one = await runCli(["log", "--json", "--session", "43f16b31"], { home });
		expect(one.stdout).toBe(ALLOW);
		const none = await runCli(["log", "--session", "ffff"], { home });
		expect(none.code).toBe(0);
		expect(none.stdout).toContain("No decisions for session ffff");
	}, 60_000);

	test("a torn or invalid line is skipped with a warning on stderr", async () => {
		const { home, file } = homeWithLog(DENY, '{"time":"2026-12-01T08:35', "\n", '{"hello":1}\n', ALLOW);
		const run = await runCli(["log", "--json"], { home });
		expect(run.code).toBe(0);
		expect(run.stdout).toBe(DENY + ALLOW);
		expect(run.stderr).toContain(`${file}:2: not a complete JSON line`);
		expect(run.stderr).toContain(`${file}:3: not a decision`);
	}, 60_000);

	test("--follow ends with 130 on SIGINT and 143 on SIGTERM, as a shell reports them", async () => {
		for (const [signal, code] of [
			["SIGINT", 130],
			["SIGTERM", 143],
		] as const) {
			const { home, file } = homeWithLog(DENY);
			const proc = Bun.spawn(["bun", CLI, "log", "--follow"], {
				cwd: tempDir(),
				env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
				stdout: "pipe",
				stderr: "pipe",
			});
			const killer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
			try {
				const reader = proc.stdout.getReader();
				let seen = "";
				const waitFor = async (needle: string) => {
					while (!seen.includes(needle)) {
						const { value, done } = await reader.read();
						if (done) throw new Error(`log --follow ended before printing ${needle}; got:\n${seen}`);
						seen += new TextDecoder().decode(value);
					}
				};
				await waitFor("PreToolUse/Bash");
				// A line appended and printed: it is following now (a signal earlier would meet no handler yet).
				appendFileSync(file, ALLOW);
				await waitFor("BeforeTool/read_file");
				proc.kill(signal);
				expect({ signal, code: await proc.exited }).toEqual({ signal, code });
			} finally {
				clearTimeout(killer);
				proc.kill("SIGKILL");
			}
		}
	}, 90_000);

	test("--follow prints decisions appended later", async () => {
		const { home, file } = homeWithLog(DENY);
		const proc = Bun.spawn(["bun", CLI, "log", "--follow"], {
			cwd: tempDir(),
			env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
			stdout: "pipe",
			stderr: "pipe",
		});
		const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
		try {
			const reader = proc.stdout.getReader();
			let seen = "";
			const waitFor = async (needle: string) => {
				while (!seen.includes(needle)) {
					const { value, done } = await reader.read();
					if (done) throw new Error(`log --follow ended before printing ${needle}; got:\n${seen}`);
					seen += new TextDecoder().decode(value);
				}
			};
			await waitFor("PreToolUse/Bash");
			appendFileSync(file, ALLOW.slice(0, 20)); // half a line: held back until its newline arrives
			await Bun.sleep(400);
			expect(seen).not.toContain("gemini");
			appendFileSync(file, ALLOW.slice(20));
			await waitFor("BeforeTool/read_file");
			proc.kill("SIGTERM");
			expect(await proc.exited).toBe(143);
			expect(await new Response(proc.stderr).text()).toBe("");
		} finally {
			clearTimeout(killer);
			proc.kill("SIGKILL");
		}
	}, 60_000);
});

describe("warnings a person reads", () => {
	test("at a terminal through consola (its WARN badge), in a pipe as one plain warning: line", async () => {
		const { home, file } = homeWithLog(DENY, '{"hello":1}\n');
		const piped = await runCli(["log"], { home });
		expect(piped.stderr).toStartWith(`warning: ${file}:2: not a decision`);
		expect(piped.stderr.trimEnd().split("\n")).toHaveLength(1);
		let screen = "";
		const proc = Bun.spawn(["bun", CLI, "log"], {
			cwd: tempDir(),
			env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp" },
			terminal: { cols: 120, rows: 40, data: (_t, data) => void (screen += new TextDecoder().decode(data)) },
			timeout: 30_000,
		});
		expect(await proc.exited).toBe(0);
		proc.terminal?.close();
		expect(screen).toContain("WARN");
		expect(screen).toContain(`${file}:2: not a decision`);
		expect(screen).not.toContain("warning: ");
	}, 60_000);
});
