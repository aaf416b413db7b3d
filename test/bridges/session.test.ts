/** Session continuity (docs/contract.md#bridges): one session file per agent session, the agent's transcript in ctx.sessionManager. */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readClaudeTranscript } from "../../src/agents/claude/transcript.ts";
import { readCodexTranscript } from "../../src/agents/codex/transcript.ts";
import { readGeminiTranscript } from "../../src/agents/gemini/transcript.ts";
import { agentSessionFile, sessionFileName } from "../../src/agent-call/session.ts";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { geminiBridge } from "../../src/agents/gemini/bridge.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { answerOf, CLI, fixture, spawnRun, workspace } from "./_bridge.ts";

const line = (value: unknown) => JSON.stringify(value);

const CLAUDE_TRANSCRIPT = [
	line({ type: "queue-operation", operation: "enqueue", timestamp: "2026-12-01T08:00:00.000Z" }),
	line({
		type: "user",
		uuid: "u1",
		parentUuid: null,
		timestamp: "2026-12-01T08:00:01.000Z",
		message: { role: "user", content: "clean the build folder" },
	}),
	line({ type: "user", uuid: "m1", isMeta: true, timestamp: "2026-12-01T08:00:01.100Z", message: { role: "user", content: "<meta>" } }),
	line({
		type: "assistant",
		uuid: "a1",
		timestamp: "2026-12-01T08:00:02.000Z",
		message: { id: "msg_1", role: "assistant", model: "m", content: [{ type: "thinking", thinking: "list first" }] },
	}),
	line({
		type: "assistant",
		uuid: "a2",
		timestamp: "2026-12-01T08:00:02.500Z",
		message: {
			id: "msg_1",
			role: "assistant",
			content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "rm -rf build", description: "clean" } }],
		},
	}),
	line({
		type: "user",
		uuid: "r1",
		timestamp: "2026-12-01T08:00:03.000Z",
		message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done", is_error: false }] },
	}),
	line({
		type: "assistant",
		uuid: "s1",
		isSidechain: true,
		timestamp: "2026-12-01T08:00:04.000Z",
		message: { id: "msg_2", role: "assistant", content: [{ type: "text", text: "sub-agent" }] },
	}),
	"{torn line",
].join("\n");

describe("transcripts → messages (docs/agents.md#sessions-and-transcripts)", () => {
	test("Claude: prompts, merged assistant blocks, tool calls under built-in names, results; meta and sidechains left out", () => {
		const messages = readClaudeTranscript(CLAUDE_TRANSCRIPT, claudeBridge.tools).map((m) => m.message);
		expect(messages).toEqual([
			{ role: "user", content: "clean the build folder" },
			{
				role: "assistant",
				model: "m",
				content: [
					{ type: "thinking", thinking: "list first" },
					{ type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "rm -rf build" } },
				],
			},
			{ role: "toolResult", toolCallId: "toolu_1", toolName: "bash", content: [{ type: "text", text: "done" }], isError: false },
		]);
	}, 60_000);

	test("Codex: injected context left out, exec_command as bash, outputs paired by call id", () => {
		const rollout = [
			line({ timestamp: "2026-12-01T08:33:22.000Z", type: "session_meta", payload: { id: "s", cwd: "/p" } }),
			line({
				timestamp: "2026-12-01T08:33:22.100Z",
				type: "response_item",
				payload: {
					type: "message",
					role: "user",
					content: [{ type: "input_text", text: "<environment_context>cwd</environment_context>" }],
				},
			}),
			line({
				timestamp: "2026-12-01T08:33:22.200Z",
				type: "response_item",
				payload: { type: "message", role: "user", content: [{ type: "input_text", text: "clean the build folder" }] },
			}),
			line({
				timestamp: "2026-12-01T08:33:23.000Z",
				type: "response_item",
				payload: { type: "function_call", name: "exec_command", arguments: '{"cmd":"rm -rf build"}', call_id: "call_1" },
			}),
			line({
				timestamp: "2026-12-01T08:33:24.000Z",
				type: "response_item",
				payload: { type: "function_call_output", call_id: "call_1", output: "exit 0" },
			}),
			line({
				timestamp: "2026-12-01T08:33:25.000Z",
				type: "response_item",
				payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "All done." }] },
			}),
			line({ timestamp: "2026-12-01T08:33:25.100Z", type: "event_msg", payload: { type: "agent_message", message: "All done." } }),
		].join("\n");
		expect(readCodexTranscript(rollout).map((m) => m.message)).toEqual([
			{ role: "user", content: "clean the build folder" },
			{ role: "assistant", content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "rm -rf build" } }] },
			{ role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "exit 0" }], isError: false },
			{ role: "assistant", content: [{ type: "text", text: "All done." }] },
		]);
	}, 60_000);

	test("Gemini: records by id, rewinds applied, tool calls followed by their results", () => {
		const chat = [
			line({ sessionId: "s", projectHash: "h", startTime: "2026-12-01T08:34:00.000Z", kind: "main" }),
			line({ id: "m1", timestamp: "2026-12-01T08:34:01.000Z", type: "user", content: [{ text: "clean the build folder" }] }),
			line({
				id: "m2",
				timestamp: "2026-12-01T08:34:02.000Z",
				type: "gemini",
				content: [{ text: "Removing it." }],
				toolCalls: [
					{
						id: "c1",
						name: "run_shell_command",
						args: { command: "rm -rf build", description: "x" },
						status: "success",
						result: [{ functionResponse: { id: "c1", response: { output: "(empty)" } } }],
					},
				],
			}),
			line({ id: "m3", timestamp: "2026-12-01T08:34:03.000Z", type: "user", content: "never mind" }),
			line({ $rewindTo: "m3" }),
			line({ id: "m4", timestamp: "2026-12-01T08:34:04.000Z", type: "info", content: "note" }),
		].join("\n");
		expect(readGeminiTranscript(chat, geminiBridge.tools).map((m) => m.message)).toEqual([
			{ role: "user", content: "clean the build folder" },
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Removing it." },
					{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "rm -rf build" } },
				],
			},
			{ role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "(empty)" }], isError: false },
		]);
	}, 60_000);
});

describe("session files", () => {
	test("a session id is a file name that cannot leave the agent's folder", () => {
		expect(sessionFileName("9e707540-21f2-4820-a4df-019d45e214df")).toBe("9e707540-21f2-4820-a4df-019d45e214df.jsonl");
		for (const id of ["../../etc/passwd", "..", ".hidden", "a/b", "a\\b", "x\0y"]) {
			const name = sessionFileName(id);
			expect(name).not.toContain("/");
			expect(name).not.toContain("\\");
			expect(name.startsWith(".")).toBe(false);
		}
		expect(sessionFileName("a/b")).not.toBe(sessionFileName("a_b"));
		expect(agentSessionFile("claude", "../x")).toStartWith(join(process.env.HOME as string, ".xcsh", "agent", "sessions", "claude"));
	}, 60_000);
});

/** Appends what it saw on each call; blocks with a summary of ctx.sessionManager when asked. */
const RECORDER = `export default function (pi) {
	pi.on("tool_call", (event, ctx) => {
		const command = String(event.input.command ?? "");
		if (command === "report") {
			const entries = ctx.sessionManager.getEntries();
			const summary = entries.map((e) => e.type === "message" ? e.message.role + ":" + (e.message.role === "toolResult" ? e.message.toolName : "") : e.type + ":" + e.customType);
			return { block: true, reason: "SEEN " + ctx.sessionManager.getSessionId() + " " + JSON.stringify(summary) };
		}
		for (let i = 0; i < 5; i++) pi.appendEntry("seen", { command, i, pad: "x".repeat(6000) });
	});
}
`;

describe("bridge sessions end to end", () => {
	let ws: ReturnType<typeof workspace>;
	beforeAll(() => {
		ws = workspace();
		writeFileSync(ws.hook("recorder.ts"), RECORDER);
	});

	const call = (payload: Record<string, unknown>) =>
		spawnRun([process.execPath, CLI, "bridge", "claude", "--no-discovery", "--hook", ws.hook("recorder.ts")], {
			stdin: JSON.stringify(payload),
			home: ws.home,
			cwd: ws.project,
		});
	const payload = (sessionId: string, command: string, transcript?: string) => {
		const p = fixture("claude", "PreToolUse.Bash.json", ws.project);
		p.session_id = sessionId;
		(p.tool_input as Record<string, unknown>).command = command;
		p.transcript_path = transcript ?? join(ws.project, "no-such-transcript.jsonl");
		return p;
	};
	const reason = (run: Awaited<ReturnType<typeof call>>) =>
		(answerOf(run) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;

	test("entries appended in one call are seen by the next, keyed by the agent's session id", async () => {
		expect(answerOf(await call(payload("sess-a", "ls")))).toBeUndefined();
		const run = await call(payload("sess-a", "report"));
		expect(reason(run)).toContain(`SEEN sess-a ${JSON.stringify(Array(5).fill("custom:seen"))}`);
		expect(run.stderr).toContain("no-such-transcript.jsonl cannot be read");
		expect(run.stderr.match(/cannot be read/g)).toHaveLength(1);
		expect(reason(await call(payload("sess-b", "report")))).toContain("SEEN sess-b []");
	}, 60_000);

	test("ctx.sessionManager shows the agent's transcript with the hooks' entries after it", async () => {
		const transcript = join(ws.project, "transcript.jsonl");
		writeFileSync(transcript, CLAUDE_TRANSCRIPT);
		await call(payload("sess-t", "ls", transcript));
		const seen = reason(await call(payload("sess-t", "report", transcript)));
		expect(seen).toContain(JSON.stringify(["user:", "assistant:", "toolResult:bash", ...Array(5).fill("custom:seen")]));
	}, 60_000);

	test("an auto-commit style hook reads the last assistant message from the agent's transcript at Stop", async () => {
		// Like the upstream auto-commit example: on agent_end, take the last assistant text as the commit message.
		const out = join(ws.project, "commit-message.txt");
		writeFileSync(
			ws.hook("auto-commit.ts"),
			`import { writeFileSync } from "node:fs";
export default function (pi) {
	pi.on("agent_end", (_event, ctx) => {
		const last = ctx.sessionManager.getBranch().filter((e) => e.type === "message" && e.message.role === "assistant").at(-1);
		const text = last?.message.content.filter((c) => c.type === "text").map((c) => c.text).join(" ");
		writeFileSync(${JSON.stringify(out)}, text ?? "(none)");
	});
}
`,
		);
		const transcript = join(ws.project, "stop-transcript.jsonl");
		writeFileSync(
			transcript,
			[
				CLAUDE_TRANSCRIPT,
				line({
					type: "assistant",
					uuid: "a3",
					timestamp: "2026-12-01T08:00:05.000Z",
					message: { id: "msg_3", role: "assistant", content: [{ type: "text", text: "Removed the build folder." }] },
				}),
			].join("\n"),
		);
		const stop = {
			session_id: "sess-stop",
			transcript_path: transcript,
			cwd: ws.project,
			permission_mode: "default",
			hook_event_name: "Stop",
			stop_hook_active: false,
		};
		const run = await spawnRun([process.execPath, CLI, "bridge", "claude", "--no-discovery", "--hook", ws.hook("auto-commit.ts")], {
			stdin: JSON.stringify(stop),
			home: ws.home,
			cwd: ws.project,
		});
		expect(run.code).toBe(0);
		expect(run.stdout).toBe(""); // no opinion: Stop is not a guard event
		expect(readFileSync(out, "utf8")).toBe("Removed the build folder.");
	}, 60_000);

	test("concurrent bridge processes on one session: every line whole, one header", async () => {
		const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => call(payload("sess-c", `echo ${i}`))));
		for (const run of runs) expect(run.code).toBe(0);
		const file = join(ws.home, ".xcsh", "agent", "sessions", "claude", "sess-c.jsonl");
		const lines = readFileSync(file, "utf8").split("\n");
		expect(lines.pop()).toBe("");
		const records = lines.map((text) => JSON.parse(text));
		expect(records.filter((r) => r.type === "session")).toEqual([expect.objectContaining({ id: "sess-c", cwd: ws.project })]);
		expect(records.filter((r) => r.type === "custom")).toHaveLength(40);
		const warnings: string[] = [];
		const session = SessionManager.open(file, { onWarning: (w) => warnings.push(w) });
		expect(warnings).toEqual([]);
		expect(session.getEntries()).toHaveLength(40);
		session.close();
	}, 60_000);
});
