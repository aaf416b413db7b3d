/**
 * Issue 18, item 5: reading a transcript can never hang a call. A `transcript_path` in the payload that
 * names a FIFO, `/dev/zero`, a 300 MB file or a directory is an empty transcript view and one warning
 * on stderr, and the bridge answers what the hook decided on that view (here: a deny naming how many
 * transcript entries it saw). A normal transcript is still shown. The same bounded reader serves the
 * file content Cursor's `beforeReadFile` hooks are given, so a read of `/dev/zero` cannot hang `emit`.
 *
 * "Promptly" is the process bound of each run (killed, and failed, after RUN_MS), not a timed assertion.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBoundedText } from "../../src/fs/read-bounded.ts";
import { type Cli, type Run, runCli, useClis } from "./_cli.ts";
import { expectNoStackTrace } from "./_expect.ts";
import { mkfifo, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const TEST_MS = 60_000;
const RUN_MS = 15_000;

/** Blocks every tool call with the number of transcript entries `ctx.sessionManager` shows. */
const COUNTING_GUARD = `export default (pi) => pi.on("tool_call", (_event, ctx) => {
	const seen = ctx.sessionManager.getEntries().filter((e) => e.id.startsWith("transcript-")).length;
	return { block: true, reason: "TRANSCRIPT " + seen };
});
`;

const line = (value: unknown) => JSON.stringify(value);

interface Agent {
	name: string;
	payload(cwd: string, transcript: string): Record<string, unknown>;
	reason(run: Run): unknown;
	/** A transcript in this agent's format with `messages` messages. */
	transcript: string;
	messages: number;
}

const claudeStyle = (run: Run) => JSON.parse(run.stdout).hookSpecificOutput?.permissionDecisionReason;

const AGENTS: Agent[] = [
	{
		name: "claude",
		payload: (cwd, transcript) => ({
			session_id: "s-claude",
			hook_event_name: "PreToolUse",
			cwd,
			transcript_path: transcript,
			tool_name: "Bash",
			tool_input: { command: "ls" },
		}),
		reason: claudeStyle,
		transcript: [
			line({ type: "user", uuid: "u1", timestamp: "2026-12-01T08:00:01.000Z", message: { role: "user", content: "list files" } }),
			line({
				type: "assistant",
				uuid: "a1",
				timestamp: "2026-12-01T08:00:02.000Z",
				message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Listing." }] },
			}),
		].join("\n"),
		messages: 2,
	},
	{
		name: "codex",
		payload: (cwd, transcript) => ({
			session_id: "s-codex",
			turn_id: "t1",
			hook_event_name: "PreToolUse",
			cwd,
			transcript_path: transcript,
			model: "m",
			tool_name: "Bash",
			tool_input: { command: "ls" },
		}),
		reason: claudeStyle,
		transcript: [
			line({
				timestamp: "2026-12-01T08:33:22.200Z",
				type: "response_item",
				payload: { type: "message", role: "user", content: [{ type: "input_text", text: "list files" }] },
			}),
			line({
				timestamp: "2026-12-01T08:33:25.000Z",
				type: "response_item",
				payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "Listing." }] },
			}),
		].join("\n"),
		messages: 2,
	},
	{
		name: "gemini",
		payload: (cwd, transcript) => ({
			session_id: "s-gemini",
			hook_event_name: "BeforeTool",
			cwd,
			transcript_path: transcript,
			tool_name: "run_shell_command",
			tool_input: { command: "ls" },
		}),
		reason: (run) => JSON.parse(run.stdout).reason,
		transcript: [
			line({ sessionId: "s", projectHash: "h", startTime: "2026-12-01T08:34:00.000Z", kind: "main" }),
			line({ id: "m1", timestamp: "2026-12-01T08:34:01.000Z", type: "user", content: [{ text: "list files" }] }),
			line({ id: "m2", timestamp: "2026-12-01T08:34:02.000Z", type: "gemini", content: [{ text: "Listing." }] }),
		].join("\n"),
		messages: 2,
	},
];

interface Target {
	name: string;
	/** Creates the target in `dir` and returns its path. */
	make(dir: string): string;
	/** What the warning says about it. */
	kind: string;
}

const TARGETS: Target[] = [
	{ name: "a FIFO with no writer", kind: "a FIFO", make: (dir) => (mkfifo(join(dir, "transcript.jsonl")), join(dir, "transcript.jsonl")) },
	{ name: "/dev/zero", kind: "a character device", make: () => "/dev/zero" },
	{
		name: "a 300 MB (sparse) file",
		kind: "over the 64 MiB limit",
		make: (dir) => {
			const path = join(dir, "huge.jsonl");
			const truncate = Bun.spawnSync(["truncate", "-s", "300M", path], { env: process.env });
			if (truncate.exitCode !== 0) throw new Error(`truncate failed: ${truncate.stderr.toString()}`);
			return path;
		},
	},
	{ name: "a directory", kind: "a directory", make: (dir) => (mkdirSync(join(dir, "transcript.d")), join(dir, "transcript.d")) },
];

function setup(): { project: string; home: string; hook: string } {
	const project = tempDir("xcsh-faults-transcript-");
	writeFiles(project, { "guard.ts": COUNTING_GUARD });
	return { project, home: privateHome(), hook: join(project, "guard.ts") };
}

const bridge = (cli: Cli, agent: Agent, project: string, home: string, hook: string, transcript: string) =>
	runCli(cli, ["bridge", agent.name, "--no-discovery", "--hook", hook], {
		cwd: project,
		home,
		stdin: JSON.stringify(agent.payload(project, transcript)),
		timeoutMs: RUN_MS,
	});

function expectAnswered(run: Run, agent: Agent, expected: string): void {
	if (run.timedOut || run.code !== 0)
		throw new Error(
			`bridge ${agent.name} ${run.timedOut ? "hung (killed)" : `exited ${run.code}`}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`,
		);
	expectNoStackTrace(run);
	expect(agent.reason(run)).toContain(expected);
}

for (const cli of useClis()) {
	describe(`${cli.name}: bridge <agent> with a transcript_path that is not a small regular file`, () => {
		for (const agent of AGENTS)
			for (const target of TARGETS)
				test.concurrent(
					`${agent.name}, ${target.name}: the hook decides on an empty view, one warning, no hang`,
					async () => {
						const { project, home, hook } = setup();
						const path = target.make(project);
						const run = await bridge(cli, agent, project, home, hook, path);
						expectAnswered(run, agent, "TRANSCRIPT 0");
						const warnings = run.stderr.split("\n").filter((l) => l.includes(`transcript ${path} cannot be read`));
						expect(warnings).toHaveLength(1);
						expect(warnings[0]).toContain(target.kind);
					},
					TEST_MS,
				);

		for (const agent of AGENTS)
			test.concurrent(
				`${agent.name}, a normal transcript: its messages are shown, no warning`,
				async () => {
					const { project, home, hook } = setup();
					const path = join(project, "transcript.jsonl");
					writeFileSync(path, agent.transcript);
					const run = await bridge(cli, agent, project, home, hook, path);
					expectAnswered(run, agent, `TRANSCRIPT ${agent.messages}`);
					expect(run.stderr).not.toContain("cannot be read");
				},
				TEST_MS,
			);
	});

	describe(`${cli.name}: a Cursor beforeReadFile hook on a special file`, () => {
		test(
			"emit of a read of /dev/zero or a FIFO runs the hook with empty content instead of hanging",
			async () => {
				const project = tempDir("xcsh-faults-transcript-");
				const home = privateHome();
				mkfifo(join(project, "pipe"));
				writeFiles(project, {
					".cursor/hooks.json": JSON.stringify({ version: 1, hooks: { beforeReadFile: [{ command: "sh .cursor/hooks/read.sh" }] } }),
					// Denies with the length of the content it was given.
					".cursor/hooks/read.sh": `#!/bin/sh\nn=$(wc -c)\necho "{\\"permission\\":\\"deny\\",\\"agent_message\\":\\"PAYLOAD $n\\"}"\n`,
				});
				const approve = await runCli(cli, ["trust", "approve", "--all"], { cwd: project, home, timeoutMs: RUN_MS });
				expect(approve.code).toBe(0);
				for (const path of ["/dev/zero", join(project, "pipe")]) {
					const data = JSON.stringify({ toolName: "read", input: { path } });
					const run = await runCli(cli, ["emit", "tool_call", "--data", data], { cwd: project, home, timeoutMs: RUN_MS });
					if (run.timedOut) throw new Error(`emit hung on a read of ${path}\nstderr:\n${run.stderr}`);
					expect(run.code).toBe(2);
					expect(run.stderr).toContain("PAYLOAD");
				}
			},
			TEST_MS,
		);
	});
}

describe("readBoundedText", () => {
	test("partial: the first maxBytes, never half a character; refused without it", () => {
		const dir = tempDir("xcsh-faults-transcript-");
		const path = join(dir, "text");
		writeFileSync(path, "abcé!"); // é is two bytes: 4 bytes end inside it
		expect(readBoundedText(path, { maxBytes: 4, partial: true })).toEqual({ ok: true, text: "abc", truncated: true });
		expect(readBoundedText(path, { maxBytes: 6 })).toEqual({ ok: true, text: "abcé!", truncated: false });
		const refused = readBoundedText(path, { maxBytes: 4 });
		expect(refused.ok).toBe(false);
	});

	test("a regular file that reports size 0 (like /proc files) is still read, up to the limit", () => {
		const read = readBoundedText("/proc/self/status", { maxBytes: 1024 * 1024 });
		expect(read.ok && read.text).toContain("Pid:");
		expect(readBoundedText("/proc/self/status", { maxBytes: 8 }).ok).toBe(false);
	});
});
