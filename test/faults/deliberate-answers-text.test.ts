/**
 * Every answer is deliberate (issue 18, item 8), the text half: a `serve --http` URL's `?event=` never
 * overrides the event the payload names, and reasons given to agents and every field `xcsh-hooks log`
 * prints are one line with their control characters escaped — through both CLIs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, minimalEnv, runCli, useClis } from "./_cli.ts";
import { guardOn, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const CLIS = useClis();
const TIMEOUT_MS = 60_000;

/** Control characters, DEL, C1 controls, line separators and bidi marks: none may reach a reader raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

// A reason with a newline, an ESC colour sequence, a C1 CSI, a line separator and a bidi override.
const REASON_SOURCE = String.raw`"a\nb\u001b[31m c\u009b2J d\u2028e\u202Ef"`;
const REASON_SHOWN = String.raw`a\nb\u001b[31m c\u009b2J d\u2028e\u202ef`;

const claudePre = (cwd: string, command: string) =>
	JSON.stringify({ session_id: "s-text", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, cwd });

interface HttpServe {
	url: string;
	token: string;
	stop(): Promise<void>;
}

const running = new Set<Bun.Subprocess>();
afterEach(() => {
	for (const proc of running) proc.kill("SIGKILL");
	running.clear();
});

/** `xcsh-hooks serve --http 127.0.0.1:0` as a real process; resolves once it printed its ready line. */
async function serveHttp(cli: Cli, hook: string, home: string, cwd: string): Promise<HttpServe> {
	const proc = Bun.spawn(cli.argv(["serve", "--http", "127.0.0.1:0", "--no-discovery", "--no-watch", "--hook", hook]), {
		cwd,
		env: minimalEnv(home),
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
	});
	running.add(proc);
	const guard = setTimeout(() => proc.kill("SIGKILL"), 30_000); // no server outlives its test
	const reader = proc.stdout.getReader();
	let text = "";
	for (let i = 0; i < 1000 && !text.includes("\n"); i++) {
		const { done, value } = await reader.read();
		if (done) break;
		text += new TextDecoder().decode(value);
	}
	const ready = JSON.parse(text.split("\n")[0] as string);
	if (ready.method !== "ready") throw new Error(`serve --http did not get ready: ${text}`);
	return {
		url: ready.params.url,
		token: readFileSync(ready.params.tokenFile, "utf8").trim(),
		async stop() {
			proc.kill("SIGTERM");
			await proc.exited;
			clearTimeout(guard);
			running.delete(proc);
		},
	};
}

for (const cli of CLIS) {
	describe(`${cli.name}: serve --http never lets ?event= override the payload's event`, () => {
		test(
			"a PreToolUse payload posted to ?event=PostToolUse is denied, naming both; a matching or needed ?event= works",
			async () => {
				const dir = tempDir("xcsh-faults-http-event-");
				writeFiles(dir, { "guard.ts": guardOn(`return { block: true, reason: "no touch here" };`) });
				const server = await serveHttp(cli, join(dir, "guard.ts"), privateHome(), dir);
				const post = (path: string, body: string) =>
					fetch(new URL(path, server.url), {
						method: "POST",
						body,
						headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
					}).then(async (r) => ({ status: r.status, body: await r.text() }));
				try {
					// Before: ?event=PostToolUse made this guard call a tool result, answered "no opinion" (an allow).
					const forged = await post("/?event=PostToolUse", claudePre(dir, "touch x"));
					expect(forged.status).toBe(200);
					expect(forged.body.trim()).not.toBe(""); // "no opinion": the call would run
					const denied = JSON.parse(forged.body).hookSpecificOutput;
					expect(denied.permissionDecision).toBe("deny");
					expect(denied.permissionDecisionReason).toContain("?event=PostToolUse does not match the event the payload names (PreToolUse)");

					const other = await post("/?event=Stop", claudePre(dir, "touch x"));
					expect(JSON.parse(other.body).hookSpecificOutput.permissionDecision).toBe("deny");

					// The same event: the hooks decide.
					const same = await post("/?event=PreToolUse", claudePre(dir, "touch x"));
					expect(JSON.parse(same.body).hookSpecificOutput.permissionDecisionReason).toStartWith("no touch here");

					// Copilot's camelCase payloads name no event: there ?event= is what names it.
					const camel = JSON.stringify({ sessionId: "s", timestamp: 1, cwd: dir, toolName: "bash", toolArgs: { command: "touch x" } });
					const copilot = await post("/copilot?event=preToolUse", camel);
					expect(JSON.parse(copilot.body)).toEqual({
						permissionDecision: "deny",
						permissionDecisionReason: expect.stringContaining("no touch here"),
					});
				} finally {
					await server.stop();
				}
			},
			TIMEOUT_MS,
		);
	});

	describe(`${cli.name}: reasons and log fields are one line, control characters escaped`, () => {
		test(
			"bridge claude|codex|gemini give the reason on one line, escaped; `log` prints it so, and --json too",
			async () => {
				const dir = tempDir("xcsh-faults-one-line-");
				writeFiles(dir, {
					"multi.ts": guardOn(`return { block: true, reason: ${REASON_SOURCE} };`),
					"throws.ts": guardOn(String.raw`throw new Error("first line\nsecond line\u001b]0;retitled\u0007");`),
				});
				const home = privateHome();
				const payloads = {
					claude: claudePre(dir, "touch x"),
					codex: JSON.stringify({
						session_id: "s-text",
						turn_id: "t",
						hook_event_name: "PreToolUse",
						tool_name: "Bash",
						tool_input: { command: "touch x" },
						cwd: dir,
					}),
					gemini: JSON.stringify({
						session_id: "s-text",
						hook_event_name: "BeforeTool",
						tool_name: "run_shell_command",
						tool_input: { command: "touch x" },
						cwd: dir,
					}),
				};
				const reasonOf = (agent: string, answer: any): string =>
					agent === "gemini" ? answer.reason : answer.hookSpecificOutput.permissionDecisionReason;
				for (const [agent, payload] of Object.entries(payloads)) {
					for (const [hook, shown] of [
						["multi.ts", REASON_SHOWN],
						["throws.ts", String.raw`first line\nsecond line\u001b]0;retitled\u0007`],
					] as const) {
						const run = await runCli(cli, ["bridge", agent, "--no-discovery", "--hook", join(dir, hook)], {
							cwd: dir,
							home,
							stdin: payload,
						});
						expect(run.code).toBe(0);
						const reason = reasonOf(agent, JSON.parse(run.stdout));
						expect(reason).toContain(shown);
						expect(reason).not.toMatch(RAW_CONTROL);
						expect(reason).not.toContain("\n");
					}
				}

				const log = await runCli(cli, ["log"], { cwd: dir, home });
				expect(log.code).toBe(0);
				// One entry per decision, none forged: `log` wraps a long entry at 80 columns into lines it indents.
				const lines = log.stdout.trimEnd().replaceAll("\n    ", " ").split("\n");
				expect(lines).toHaveLength(6);
				expect(log.stdout).not.toMatch(RAW_CONTROL);
				expect(lines.filter((line) => line.includes(REASON_SHOWN))).toHaveLength(3);

				const json = await runCli(cli, ["log", "--json"], { cwd: dir, home });
				const jsonLines = json.stdout.trimEnd().split("\n");
				expect(jsonLines).toHaveLength(6);
				expect(json.stdout).not.toMatch(RAW_CONTROL);
				expect(JSON.parse(jsonLines[0] as string).reason).toContain(REASON_SHOWN); // the entry holds what the agent was told
			},
			TIMEOUT_MS,
		);

		test(
			"a log whose every field carries control characters is shown one decision per line, all escaped",
			async () => {
				const dir = tempDir("xcsh-faults-log-fields-");
				const entry = {
					time: "2026-12-01T08:00:00.000Z\u001b[2J",
					agent: "cl\u001b]0;pwned\u0007aude",
					session: "s\nFORGED",
					event: "Pre\rToolUse",
					tool: "Ba\tsh\u2028",
					decision: "deny\u009b31m",
					reason: "fine\n2026-12-01 08:00:01  claude  -  PreToolUse/Bash  allow",
					hook: "/h\u202eook.ts",
					durationMs: 1,
				};
				writeFiles(dir, {
					"decisions.jsonl": `${JSON.stringify(entry)}\n${JSON.stringify({ ...entry, reason: 42, tool: ["x\u001b"] })}\n`,
				});
				for (const args of [["log"], ["log", "--json"], ["log", "--session", "s"]]) {
					const run = await runCli(cli, [...args, "--file", join(dir, "decisions.jsonl")], { cwd: dir, home: privateHome() });
					expect(run.code).toBe(0);
					expect(run.stdout).not.toMatch(RAW_CONTROL);
					const entries = args[1] === "--json" ? run.stdout.trimEnd() : run.stdout.trimEnd().replaceAll("\n    ", " ");
					expect(entries.split("\n")).toHaveLength(2);
				}
				const shown = await runCli(cli, ["log", "--file", join(dir, "decisions.jsonl")], { cwd: dir, home: privateHome() });
				expect(shown.stdout).toContain(String.raw`cl\u001b]0;pwned\u0007aude`);
				expect(shown.stdout).toContain(String.raw`"fine\n2026-12-01 08:00:01`);
			},
			TIMEOUT_MS,
		);
	});
}
