/**
 * Who acts and through what (issue 22), through the compiled executable: one guard file, written
 * against `event.mcp` and `ctx.agent.subagent`, blocks an MCP `delete_path` and a subagent's shell
 * call in every agent, and lets the main agent's shell call and another MCP tool through. Payloads
 * are the agents' own forms (docs/agents.md): Claude/Codex `mcp__files__delete_path` + `agent_id`,
 * Gemini `mcp_files_delete_path` (no subagent fields), Copilot `files-delete_path` + `agent_id`,
 * Cursor `beforeMCPExecution` and its subagentStart.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const [exe] = useClis();

const GUARD = `export default function (pi) {
	pi.on("tool_call", (event, ctx) => {
		console.error("SEEN " + JSON.stringify({ agent: ctx.agent, toolName: event.toolName, agentToolName: event.agentToolName, mcp: event.mcp }));
		if (event.mcp?.tool === "delete_path") return { block: true, reason: "GUARD: no delete_path through MCP server " + event.mcp.server };
		if (ctx.agent?.subagent && event.toolName === "bash") return { block: true, reason: "GUARD: subagent " + ctx.agent.subagent.type + " may not run shell commands" };
	});
	pi.on("subagent_start", (event, ctx) => {
		console.error("START " + JSON.stringify({ agent: ctx.agent, subagent: event.subagent }));
		if (event.subagent.type === "writer") return { block: true, reason: "GUARD: no writer subagents" };
	});
	pi.on("subagent_end", (event) => console.error("END " + JSON.stringify(event)));
}
`;

interface Case {
	agent: string;
	event?: string;
	payload: Record<string, unknown>;
}

const rm = { command: "rm -rf build" };
const del = { path: "keep.txt" };

/** Per agent: the main agent's shell call (allowed), a subagent's (blocked), the MCP delete (blocked), another MCP tool (allowed). */
function cases(cwd: string): Record<string, { main: Case; sub?: Case; mcp: Case; otherMcp: Case; notMcp?: Case }> {
	const claude = { session_id: "s-claude", cwd, hook_event_name: "PreToolUse", tool_use_id: "toolu_1" };
	const codex = { session_id: "s-codex", cwd, hook_event_name: "PreToolUse", tool_use_id: "call_1" };
	const gemini = { session_id: "s-gemini", cwd, hook_event_name: "BeforeTool" };
	const copilot = { sessionId: "s-copilot", timestamp: 1, cwd };
	const cursor = { conversation_id: "c-cursor", workspace_roots: [cwd] };
	return {
		claude: {
			main: { agent: "claude", payload: { ...claude, tool_name: "Bash", tool_input: rm } },
			sub: { agent: "claude", payload: { ...claude, tool_name: "Bash", tool_input: rm, agent_id: "a-1", agent_type: "Explore" } },
			mcp: { agent: "claude", payload: { ...claude, tool_name: "mcp__files__delete_path", tool_input: del, mcp_server: "files" } },
			otherMcp: { agent: "claude", payload: { ...claude, tool_name: "mcp__files__read_path", tool_input: del } },
			notMcp: { agent: "claude", payload: { ...claude, tool_name: "my__delete_path", tool_input: del } },
		},
		codex: {
			main: { agent: "codex", payload: { ...codex, tool_name: "Bash", tool_input: rm } },
			sub: { agent: "codex", payload: { ...codex, tool_name: "Bash", tool_input: rm, agent_id: "a-2", agent_type: "worker" } },
			mcp: { agent: "codex", payload: { ...codex, tool_name: "mcp__files__delete_path", tool_input: del } },
			otherMcp: { agent: "codex", payload: { ...codex, tool_name: "mcp__files__read_path", tool_input: del } },
		},
		gemini: {
			main: { agent: "gemini", payload: { ...gemini, tool_name: "run_shell_command", tool_input: rm } },
			mcp: { agent: "gemini", payload: { ...gemini, tool_name: "mcp_files_delete_path", tool_input: del } },
			otherMcp: { agent: "gemini", payload: { ...gemini, tool_name: "mcp_files_read_path", tool_input: del } },
		},
		copilot: {
			main: { agent: "copilot", event: "preToolUse", payload: { ...copilot, toolName: "bash", toolArgs: rm } },
			sub: {
				agent: "copilot",
				event: "preToolUse",
				payload: { ...copilot, toolName: "bash", toolArgs: rm, agentId: "a-3", agentType: "task", parentAgentId: "s-copilot" },
			},
			mcp: { agent: "copilot", event: "preToolUse", payload: { ...copilot, toolName: "files-delete_path", toolArgs: del } },
			otherMcp: { agent: "copilot", event: "preToolUse", payload: { ...copilot, toolName: "files-read_path", toolArgs: del } },
		},
		cursor: {
			main: { agent: "cursor", payload: { ...cursor, hook_event_name: "beforeShellExecution", command: "rm -rf build", cwd } },
			mcp: {
				agent: "cursor",
				payload: {
					...cursor,
					hook_event_name: "beforeMCPExecution",
					tool_name: "delete_path",
					tool_input: JSON.stringify(del),
					command: "files-mcp",
				},
			},
			otherMcp: {
				agent: "cursor",
				payload: { ...cursor, hook_event_name: "preToolUse", tool_name: "MCP:read_path", tool_input: del, tool_use_id: "t-1" },
			},
		},
	};
}

/** Whether an agent's answer denies the call (each agent's own deny form). */
function denied(agent: string, stdout: string): string | undefined {
	if (!stdout.trim()) return undefined;
	const a = JSON.parse(stdout) as Record<string, any>;
	if (agent === "claude" || agent === "codex")
		return a.hookSpecificOutput?.permissionDecision === "deny" ? a.hookSpecificOutput.permissionDecisionReason : undefined;
	if (agent === "gemini") return a.decision === "deny" ? a.reason : undefined;
	if (agent === "copilot") return a.permissionDecision === "deny" ? a.permissionDecisionReason : undefined;
	return a.permission === "deny" ? a.agent_message || a.user_message : undefined;
}

function workspace() {
	const root = tempDir("xcsh-actor-");
	const home = join(root, "home");
	const cwd = join(root, "proj");
	for (const dir of [home, cwd]) require("node:fs").mkdirSync(dir, { recursive: true });
	writeFileSync(join(root, "guard.ts"), GUARD);
	writeFileSync(join(cwd, "keep.txt"), "kept");
	return { home, cwd, guard: join(root, "guard.ts") };
}

async function bridge(ws: ReturnType<typeof workspace>, c: Case) {
	const args = ["bridge", c.agent, "--hook", ws.guard, "--no-discovery", ...(c.event ? ["--event", c.event] : [])];
	const run = await runCli(exe!, args, { cwd: ws.cwd, home: ws.home, stdin: JSON.stringify(c.payload), timeoutMs: 20_000 });
	expect(run.code).toBe(0);
	const seen = run.stderr
		.split("\n")
		.filter((line) => line.startsWith("SEEN "))
		.map((line) => JSON.parse(line.slice(5)));
	return { ...run, seen: seen[0], reason: denied(c.agent, run.stdout) };
}

describe("one guard against event.mcp and ctx.agent.subagent, in every agent (compiled executable)", () => {
	for (const agent of ["claude", "codex", "gemini", "copilot", "cursor"]) {
		test(`${agent}: MCP delete_path and a subagent's shell call are denied; the main agent's shell call and other MCP tools are not`, async () => {
			const ws = workspace();
			const all = cases(ws.cwd)[agent]!;

			const mcp = await bridge(ws, all.mcp);
			expect(mcp.reason).toContain("GUARD: no delete_path through MCP server");
			expect(mcp.seen.mcp.tool).toBe("delete_path");
			expect(mcp.seen.agent).toEqual({ name: agent });
			if (agent !== "cursor") {
				// Every agent's own spelling becomes one: mcp__files__delete_path, the agent's name kept beside it.
				expect(mcp.seen.mcp).toEqual({ server: "files", tool: "delete_path" });
				expect(mcp.seen.toolName).toBe("mcp__files__delete_path");
			}
			expect(mcp.seen.agentToolName).toBe(all.mcp.payload.tool_name ?? all.mcp.payload.toolName);

			const other = await bridge(ws, all.otherMcp);
			expect(other.reason).toBeUndefined();
			expect(other.seen.mcp.tool).toBe("read_path");

			const main = await bridge(ws, all.main);
			expect(main.reason).toBeUndefined();
			expect(main.seen).toMatchObject({ agent: { name: agent }, toolName: "bash" });
			expect(main.seen.mcp).toBeUndefined();

			if (all.sub) {
				const sub = await bridge(ws, all.sub);
				expect(sub.reason).toContain("GUARD: subagent");
				expect(sub.seen.agent.name).toBe(agent);
				expect(sub.seen.agent.subagent.id).toMatch(/^a-/);
			}
			if (all.notMcp) {
				const plain = await bridge(ws, all.notMcp);
				expect(plain.reason).toBeUndefined();
				expect(plain.seen.mcp).toBeUndefined();
				expect(plain.seen.toolName).toBe("my__delete_path");
			}

			// The decision log names the agent, the subagent and the MCP server.
			const log = readFileSync(join(ws.home, ".xcsh", "agent", "decisions.jsonl"), "utf8")
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line));
			const mcpRecord = log.find((r) => r.tool === (agent === "cursor" ? "mcp____delete_path" : "mcp__files__delete_path"));
			expect(mcpRecord).toMatchObject({ agent, decision: "deny" });
			if (agent !== "cursor") expect(mcpRecord.mcpServer).toBe("files");
			if (all.sub)
				expect(log.find((r) => r.subagent)).toMatchObject({
					agent,
					tool: "bash",
					decision: "deny",
					subagent: expect.stringMatching(/^a-/),
				});
			expect(existsSync(join(ws.cwd, "keep.txt"))).toBe(true);
		}, 120_000);
	}

	test("subagent_start / subagent_end: Claude's reach the hook with id, type, last message; Cursor's deny is the agent's permission deny", async () => {
		const ws = workspace();
		const start = await bridge(ws, {
			agent: "claude",
			payload: { session_id: "s", cwd: ws.cwd, hook_event_name: "SubagentStart", agent_id: "a-9", agent_type: "writer" },
		});
		expect(start.stdout).toBe(""); // Claude cannot be told not to start it: no opinion, and stderr says so
		expect(start.stderr).toContain('START {"agent":{"name":"claude"},"subagent":{"id":"a-9","type":"writer"}}');
		expect(start.stderr).toContain("cannot be told not to start a subagent");
		const end = await bridge(ws, {
			agent: "claude",
			payload: {
				session_id: "s",
				cwd: ws.cwd,
				hook_event_name: "SubagentStop",
				agent_id: "a-9",
				agent_type: "writer",
				last_assistant_message: "LAST-WORDS",
				agent_transcript_path: "/t/agent-a-9.jsonl",
			},
		});
		expect(end.stderr).toContain(
			'END {"type":"subagent_end","subagent":{"id":"a-9","type":"writer"},"lastMessage":"LAST-WORDS","transcriptPath":"/t/agent-a-9.jsonl"}',
		);
		const cursor = await bridge(ws, {
			agent: "cursor",
			payload: {
				hook_event_name: "subagentStart",
				conversation_id: "c",
				workspace_roots: [ws.cwd],
				subagent_id: "sa",
				subagent_type: "writer",
			},
		});
		expect(JSON.parse(cursor.stdout)).toEqual({ permission: "deny", user_message: "GUARD: no writer subagents" });
		const allowed = await bridge(ws, {
			agent: "cursor",
			payload: {
				hook_event_name: "subagentStart",
				conversation_id: "c",
				workspace_roots: [ws.cwd],
				subagent_id: "sb",
				subagent_type: "reader",
			},
		});
		expect(JSON.parse(allowed.stdout)).toEqual({});
	}, 120_000);
});
