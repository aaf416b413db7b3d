import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings } from "../../src/discovery/settings.ts";
import {
	appendDecision,
	DECISION_LOG_MAX_BYTES,
	decisionLogEnabled,
	decisionLogFile,
	parseDecisionLines,
} from "../../src/decisions/index.ts";
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

	/** WRITERS processes appending LINES lines of ≈2 KB each to `file`, rotating past `maxBytes`. */
	async function concurrentWriters(dir: string, file: string, maxBytes: number): Promise<void> {
		const script = join(dir, "writer.ts");
		writeFileSync(
			script,
			`import { appendDecision } from ${JSON.stringify(DECISION_LOG)};
const [id, count] = [process.argv[2], Number(process.argv[3])];
for (let i = 0; i < count; i++) {
	const r = appendDecision({ agent: "w" + id, session: id, event: "PreToolUse", tool: "Bash", decision: "deny", reason: String(i).padEnd(1900, "x") }, { file: process.env.LOG_FILE, maxBytes: Number(process.env.MAX_BYTES) });
	if (!r.written) throw new Error(r.warning);
}
`,
		);
		const procs = Array.from({ length: WRITERS }, (_, id) =>
			Bun.spawn(["bun", script, String(id), String(LINES)], {
				cwd: dir,
				env: { PATH: process.env.PATH ?? "", HOME: dir, TMPDIR: process.env.TMPDIR ?? "/tmp", LOG_FILE: file, MAX_BYTES: String(maxBytes) },
				stderr: "pipe",
			}),
		);
		const codes = await Promise.all(procs.map((p) => p.exited));
		expect(codes).toEqual(Array(WRITERS).fill(0));
	}

	/** Every line of `text` whole, each writer's lines all there and in order. */
	function expectAllLines(text: string, file: string): void {
		const { decisions, warnings } = parseDecisionLines(text, file);
		expect(warnings).toEqual([]);
		expect(decisions).toHaveLength(WRITERS * LINES);
		for (let id = 0; id < WRITERS; id++) {
			const mine = decisions.filter((d) => d.entry.session === String(id)).map((d) => Number.parseInt(d.entry.reason as string, 10));
			expect(mine).toEqual(Array.from({ length: LINES }, (_, i) => i));
		}
	}

	const WRITERS = 6;
	const LINES = 1000;

	test("concurrent appends from several processes: every line whole, none lost", async () => {
		const dir = tempDir();
		const file = join(dir, "decisions.jsonl");
		await concurrentWriters(dir, file, 1 << 30);
		expect(existsSync(`${file}.1`)).toBe(false);
		expectAllLines(readFileSync(file, "utf8"), file);
	}, 60_000);

	test("the log is rotated past its size limit, once, by one of the concurrent writers; no line is lost", async () => {
		const dir = tempDir();
		const file = join(dir, "decisions.jsonl");
		// ≈12 MB in all: one rotation at 8 MB, and the new file stays below the limit.
		await concurrentWriters(dir, file, 8 * 1024 * 1024);
		const previous = readFileSync(`${file}.1`, "utf8");
		expect(previous.length).toBeGreaterThan(8 * 1024 * 1024);
		expect(existsSync(`${file}.lock`)).toBe(false);
		expectAllLines(previous + readFileSync(file, "utf8"), file);
	}, 60_000);

	test("the default limit is 10 MiB, and one previous file is kept", () => {
		expect(DECISION_LOG_MAX_BYTES).toBe(10 * 1024 * 1024);
		const dir = tempDir();
		const file = join(dir, "decisions.jsonl");
		writeFileSync(`${file}.1`, "OLDEST\n");
		const entry = { agent: "cli", event: "tool_call", decision: "allow" as const };
		for (let i = 0; i < 3; i++) expect(appendDecision(entry, { file, maxBytes: 50 })).toEqual({ written: true });
		// Each line passed 50 bytes: each was written, then moved aside; the oldest file is gone.
		expect(readFileSync(`${file}.1`, "utf8").trim().split("\n")).toHaveLength(1);
		expect(existsSync(file)).toBe(false);
		expect(appendDecision(entry, { file })).toEqual({ written: true });
		expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(1);
	}, 60_000);
});
