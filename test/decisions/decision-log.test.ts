import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings } from "../../src/discovery/settings.ts";
import { appendDecision, decisionLogEnabled, decisionLogFile, parseDecisionLines } from "../../src/decisions/index.ts";
import { tempDir } from "../_helpers.ts";

const DECISION_LOG = join(import.meta.dir, "..", "..", "src", "decisions", "decision-log.ts");

describe("appendDecision", () => {
	test("defaults to ~/.xcsh/agent/decisions.jsonl of the current HOME, created private", () => {
		expect(decisionLogFile()).toBe(join(process.env.HOME as string, ".xcsh/agent/decisions.jsonl"));
		const file = join(tempDir(), "nested", "decisions.jsonl");
		expect(appendDecision({ agent: "cli", event: "tool_call", tool: "bash", decision: "allow" }, { file })).toEqual({ written: true });
		expect(statSync(file).mode & 0o777).toBe(0o600);
	}, 60_000);

	test("writes one whole line of known fields only: never the tool's input or output", () => {
		const file = join(tempDir(), "decisions.jsonl");
		const entry = {
			time: "2026-12-01T08:00:00.000Z",
			agent: "claude",
			session: "9e707540-aaaa",
			event: "PreToolUse",
			tool: "Bash",
			decision: "deny" as const,
			reason: "rm -rf is not allowed",
			hook: "/p/.xcsh/hooks/guard.ts",
			durationMs: 12.345,
			input: { command: "rm -rf / SECRET" },
			output: "SECRET",
		};
		appendDecision(entry, { file });
		const text = readFileSync(file, "utf8");
		expect(text.endsWith("\n")).toBe(true);
		expect(text).not.toContain("SECRET");
		expect(JSON.parse(text)).toEqual({
			time: "2026-12-01T08:00:00.000Z",
			agent: "claude",
			session: "9e707540-aaaa",
			event: "PreToolUse",
			tool: "Bash",
			decision: "deny",
			reason: "rm -rf is not allowed",
			hook: "/p/.xcsh/hooks/guard.ts",
			durationMs: 12.3,
		});
	}, 60_000);

	test("enabled: false writes nothing; only the user's settings turn it off", () => {
		const file = join(tempDir(), "decisions.jsonl");
		expect(appendDecision({ agent: "cli", event: "tool_call", decision: "allow" }, { file, enabled: false })).toEqual({ written: false });
		expect(() => statSync(file)).toThrow();
		expect(decisionLogEnabled(undefined)).toBe(true);
		expect(decisionLogEnabled({ decisionLog: true })).toBe(true);
		expect(decisionLogEnabled({ decisionLog: false })).toBe(false);
	}, 60_000);

	test("a project's settings cannot turn the log off; the user's can", async () => {
		const project = tempDir();
		const userFile = join(tempDir(), "settings.json");
		mkdirSync(join(project, ".xcsh"));
		writeFileSync(join(project, ".xcsh/settings.json"), '{"decisionLog": false}');
		writeFileSync(userFile, "{}");
		expect(decisionLogEnabled((await loadSettings(project, { userFile })).layers.user)).toBe(true);
		writeFileSync(userFile, '{"decisionLog": false}');
		expect(decisionLogEnabled((await loadSettings(project, { userFile })).layers.user)).toBe(false);
	}, 60_000);

	test("never throws: a failure is returned and passed to onWarning", () => {
		const dir = tempDir();
		mkdirSync(join(dir, "decisions.jsonl"));
		const warnings: string[] = [];
		const result = appendDecision(
			{ agent: "cli", event: "tool_call", decision: "deny" },
			{
				file: join(dir, "decisions.jsonl"),
				onWarning: (w) => {
					warnings.push(w);
					throw new Error("listener failed");
				},
			},
		);
		expect(result.written).toBe(false);
		expect(result.warning).toContain(join(dir, "decisions.jsonl"));
		expect(warnings).toEqual([result.warning as string]);
		const blocked = join(tempDir(), "file");
		writeFileSync(blocked, "");
		expect(appendDecision({ agent: "cli", event: "x", decision: "allow" }, { file: join(blocked, "sub", "log.jsonl") }).written).toBe(
			false,
		);
	}, 60_000);

	test("concurrent appends from several processes: every line whole, none lost", async () => {
		const dir = tempDir();
		const file = join(dir, "decisions.jsonl");
		const script = join(dir, "writer.ts");
		writeFileSync(
			script,
			`import { appendDecision } from ${JSON.stringify(DECISION_LOG)};
const [id, count] = [process.argv[2], Number(process.argv[3])];
for (let i = 0; i < count; i++) {
	const r = appendDecision({ agent: "w" + id, session: id, event: "PreToolUse", tool: "Bash", decision: "deny", reason: String(i).padEnd(1900, "x") }, { file: process.env.LOG_FILE });
	if (!r.written) throw new Error(r.warning);
}
`,
		);
		const WRITERS = 6;
		const LINES = 1000;
		const procs = Array.from({ length: WRITERS }, (_, id) =>
			Bun.spawn(["bun", script, String(id), String(LINES)], {
				cwd: dir,
				env: { PATH: process.env.PATH ?? "", HOME: dir, TMPDIR: process.env.TMPDIR ?? "/tmp", LOG_FILE: file },
				stderr: "pipe",
			}),
		);
		const codes = await Promise.all(procs.map((p) => p.exited));
		expect(codes).toEqual(Array(WRITERS).fill(0));
		const text = readFileSync(file, "utf8");
		const { decisions, warnings } = parseDecisionLines(text, file);
		expect(warnings).toEqual([]);
		expect(decisions).toHaveLength(WRITERS * LINES);
		for (let id = 0; id < WRITERS; id++) {
			const mine = decisions.filter((d) => d.entry.session === String(id)).map((d) => Number.parseInt(d.entry.reason as string, 10));
			expect(mine).toEqual(Array.from({ length: LINES }, (_, i) => i));
		}
	}, 60_000);
});
