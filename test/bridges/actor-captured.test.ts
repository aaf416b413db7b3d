/**
 * Who acts and through what, read from the payloads the real clients sent in the real-client suite
 * (`bun run test:agents`, the subagent and MCP cases; copied into fixtures/<agent>/): Claude Code
 * 2.1.328, Codex 0.169.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Qwen Code 0.24.4, Factory Droid
 * 0.225.2, Cline 3.0.65.
 */
import { describe, expect, test } from "bun:test";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { codexBridge } from "../../src/agents/codex/bridge.ts";
import { copilotBridge } from "../../src/agents/copilot/bridge.ts";
import { clineBridge } from "../../src/agents/cline/bridge.ts";
import { droidBridge } from "../../src/agents/droid/bridge.ts";
import { geminiBridge } from "../../src/agents/gemini/bridge.ts";
import { qwenBridge } from "../../src/agents/qwen/bridge.ts";
import type { AgentBridge } from "../../src/agents/_shared/bridge-types.ts";
import { mapPayload } from "../../src/agent-call/map.ts";
import { fixture } from "./_bridge.ts";

function event(agent: AgentBridge, file: string, patch: Record<string, unknown> = {}) {
	const payload = { ...fixture(agent.name, file), ...patch };
	const name = agent.eventName(payload, undefined);
	if (!name) throw new Error(`${file}: no event name`);
	const result = mapPayload(agent, name, payload);
	if (result.kind !== "event") throw new Error(`${file}: ${JSON.stringify(result)}`);
	return { name, event: result.event as unknown as Record<string, unknown>, payload };
}

describe("MCP tools as the real clients name them", () => {
	test("each agent's delete_path of server files is mcp__files__delete_path, with its own name beside it", () => {
		const cases: [AgentBridge, string, string][] = [
			[claudeBridge, "PreToolUse.mcp.json", "mcp__files__delete_path"],
			[codexBridge, "PreToolUse.mcp.json", "mcp__files__delete_path"],
			[geminiBridge, "BeforeTool.mcp.json", "mcp_files_delete_path"],
			[copilotBridge, "preToolUse.mcp.json", "files-delete_path"],
			[qwenBridge, "PreToolUse.mcp.json", "mcp__files__delete_path"],
			[droidBridge, "PreToolUse.mcp.json", "mcp__files__delete_path"],
			[clineBridge, "PreToolUse.mcp.json", "files__delete_path"],
		];
		for (const [agent, file, raw] of cases)
			expect(event(agent, file).event).toMatchObject({
				type: "tool_call",
				toolName: "mcp__files__delete_path",
				agentToolName: raw,
				mcp: { server: "files", tool: "delete_path" },
			});
	});

	test("Claude's mcp_server is an object {name, source}: its name splits a server name holding `__`", () => {
		const { payload } = event(claudeBridge, "PreToolUse.mcp.json");
		expect(payload.mcp_server).toEqual({ name: "files", source: "dynamic" });
		const renamed = event(claudeBridge, "PreToolUse.mcp.json", {
			tool_name: "mcp__my__files__delete_path",
			mcp_server: { name: "my__files" },
		});
		expect(renamed.event.mcp).toEqual({ server: "my__files", tool: "delete_path" });
	});

	test("Gemini's mcp_context names the server: a server name holding `_` splits right", () => {
		const { payload } = event(geminiBridge, "BeforeTool.mcp.json");
		expect(payload.mcp_context).toMatchObject({ server_name: "files", tool_name: "delete_path" });
		const renamed = event(geminiBridge, "BeforeTool.mcp.json", {
			tool_name: "mcp_my_files_delete_path",
			mcp_context: { server_name: "my_files", tool_name: "delete_path" },
		});
		expect(renamed.event.mcp).toEqual({ server: "my_files", tool: "delete_path" });
	});
});

describe("subagents as the real clients name them", () => {
	test("a subagent's shell call: Claude and Codex agent_id/agent_type, Copilot agentId with its parent, Gemini nothing", () => {
		expect(claudeBridge.subagent?.(fixture("claude", "PreToolUse.subagent.json"))).toEqual({
			id: "a90b973442b237e55",
			type: "general-purpose",
		});
		expect(codexBridge.subagent?.(fixture("codex", "PreToolUse.subagent.json"))).toMatchObject({ type: "default" });
		const copilot = fixture("copilot", "preToolUse.subagent.json");
		expect(copilotBridge.subagent?.(copilot)).toEqual({
			id: "8376863f-1a88-486c-8fc1-217f42352c44",
			type: "general-purpose",
			parentId: "b1f6a085-21e2-44b4-a61f-5d4a12184906",
		});
		// Gemini runs invoke_agent's calls under the main session, with the same fields as the main agent's.
		const gemini = fixture("gemini", "BeforeTool.in-subagent.json");
		expect(Object.keys(gemini).sort()).toEqual([
			"cwd",
			"hook_event_name",
			"session_id",
			"timestamp",
			"tool_input",
			"tool_name",
			"transcript_path",
		]);
		expect(geminiBridge.subagent).toBeUndefined();
	});

	test("Copilot gives a subagent its own session id (= its agentId): the session stays the top-level one", () => {
		const payload = fixture("copilot", "preToolUse.subagent.json");
		expect(payload.sessionId).toBe(payload.agentId);
		expect(copilotBridge.sessionId(payload)).toBe("b1f6a085-21e2-44b4-a61f-5d4a12184906");
		expect(copilotBridge.sessionId(fixture("copilot", "subagentStart.json"))).toBe("b1f6a085-21e2-44b4-a61f-5d4a12184906");
		expect(copilotBridge.sessionId(fixture("copilot", "preToolUse.json"))).toBe(fixture("copilot", "preToolUse.json").sessionId as string);
	});

	test("Copilot's four start/stop payloads: recognised without --event (SubagentStart has no event name), id, type, parent, last message", () => {
		const subagent = {
			id: "8376863f-1a88-486c-8fc1-217f42352c44",
			type: "general-purpose",
			parentId: "b1f6a085-21e2-44b4-a61f-5d4a12184906",
		};
		const start = event(copilotBridge, "subagentStart.json");
		expect(start.name).toBe("subagentStart");
		expect(start.event).toEqual({ type: "subagent_start", subagent });
		const pascalStart = event(copilotBridge, "SubagentStart.json");
		expect(pascalStart.name).toBe("SubagentStart");
		expect(pascalStart.event).toEqual({ type: "subagent_start", subagent });
		const stop = event(copilotBridge, "subagentStop.json");
		expect(stop.name).toBe("subagentStop");
		expect(stop.event).toMatchObject({ type: "subagent_end", subagent, lastMessage: "All done." });
		expect(event(copilotBridge, "SubagentStop.json").event).toMatchObject({ type: "subagent_end", subagent, lastMessage: "All done." });
	});

	test("Claude's and Codex's SubagentStart/SubagentStop carry the id the subagent's calls carry", () => {
		for (const agent of [claudeBridge, codexBridge]) {
			const id = agent.subagent?.(fixture(agent.name, "PreToolUse.subagent.json"))?.id;
			expect(event(agent, "SubagentStart.json").event).toMatchObject({ type: "subagent_start", subagent: { id } });
			const end = event(agent, "SubagentStop.json").event;
			expect(end).toMatchObject({ type: "subagent_end", subagent: { id } });
			expect(end.transcriptPath).toBeString();
		}
	});

	test("Qwen: an agent subagent's calls carry agent_id only; Cline: every call names its agent, a subagent's also its parent", () => {
		expect(qwenBridge.subagent?.(fixture("qwen", "PreToolUse.subagent.json"))).toEqual({ id: "general-purpose-call_1" });
		expect(qwenBridge.subagent?.(fixture("qwen", "PreToolUse.json"))).toBeUndefined();
		const sub = fixture("cline", "PreToolUse.subagent.json");
		expect(clineBridge.subagent?.(sub)).toEqual({ id: String(sub.agent_id), parentId: String(sub.parent_agent_id) });
		// The main agent's payloads carry an agent_id too, with parent_agent_id null: no subagent.
		const main = fixture("cline", "PreToolUse.spawn.json");
		expect(main.agent_id).toBeString();
		expect(clineBridge.subagent?.(main)).toBeUndefined();
		expect(clineBridge.subagent?.(fixture("cline", "PreToolUse.json"))).toBeUndefined();
	});

	test("Cline gives a subagent its own task: the session is the root session, one file for both", () => {
		const sub = fixture("cline", "PreToolUse.subagent.json");
		const main = fixture("cline", "PreToolUse.spawn.json");
		expect(sub.taskId).not.toBe(main.taskId);
		expect(clineBridge.sessionId(sub)).toBe(clineBridge.sessionId(main));
	});

	test("names that only look like MCP: Cline's built-ins have no `__`, Qwen's and Droid's no `mcp__`", () => {
		const call = (agent: AgentBridge, name: string) => agent.mcpTool?.({ name, input: {} }, {}, "PreToolUse");
		expect(call(clineBridge, "run_commands")).toBeUndefined();
		expect(call(clineBridge, "team_spawn_teammate")).toBeUndefined();
		expect(call(qwenBridge, "run_shell_command")).toBeUndefined();
		expect(call(qwenBridge, "my__tool")).toBeUndefined();
		expect(call(droidBridge, "Execute")).toBeUndefined();
	});
});
