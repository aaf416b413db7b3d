/** Pure mapping, in-process: payload → our event, tools both ways, outcome → each agent's answer. */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { auggieBridge } from "../../src/agents/auggie/bridge.ts";
import { claudeBridge, claudeToolOutput } from "../../src/agents/claude/bridge.ts";
import { codexBridge } from "../../src/agents/codex/bridge.ts";
import { copilotBridge } from "../../src/agents/copilot/bridge.ts";
import { cursorBridge } from "../../src/agents/cursor/bridge.ts";
import { checkShape, obj, opt, str } from "../../src/agents/_shared/fields.ts";
import { geminiBridge } from "../../src/agents/gemini/bridge.ts";
import { bridgeNames, loadBridge } from "../../src/agent-call/index.ts";
import { mapPayload, toOutcome } from "../../src/agent-call/map.ts";
import { agentPayloadSchemas } from "../../src/agent-call/schema.ts";
import { fileRules, shellRule, toAgentInput, toBuiltin } from "../../src/agents/_shared/tools.ts";
import type { AgentBridge, Outcome } from "../../src/agents/_shared/bridge-types.ts";
import { FIXTURES, fixture } from "./_bridge.ts";

const AGENTS: Record<string, AgentBridge> = {
	claude: claudeBridge,
	codex: codexBridge,
	gemini: geminiBridge,
	cursor: cursorBridge,
	copilot: copilotBridge,
	auggie: auggieBridge,
};

function mapped(agent: AgentBridge, file: string, hint?: string) {
	const payload = fixture(agent.name, file);
	const name = agent.eventName(payload, hint);
	if (!name) throw new Error(`${file}: no event name`);
	const result = mapPayload(agent, name, payload);
	if (result.kind !== "event") throw new Error(`${file}: ${JSON.stringify(result)}`);
	return result;
}

function answer(agent: AgentBridge, event: string, outcome: Outcome, payload: Record<string, unknown> = {}) {
	const warnings: string[] = [];
	const text = agent.answer(event, payload, outcome, { messages: [], warn: (line) => warnings.push(line) });
	return { text, json: text ? JSON.parse(text) : undefined, warnings };
}

describe("every captured payload", () => {
	for (const agent of Object.values(AGENTS)) {
		for (const file of readdirSync(join(FIXTURES, agent.name)).filter((f) => f.endsWith(".json"))) {
			test(`${agent.name}/${file} is named, valid, and its TypeBox schema agrees`, () => {
				const payload = fixture(agent.name, file);
				const name = agent.eventName(payload, undefined);
				expect(name).toBeString();
				expect(agent.events[name as string]).toBeDefined();
				expect(mapPayload(agent, name as string, payload).kind).not.toBe("invalid");
				expect(Value.Check(agentPayloadSchemas(agent)[name as string] as never, payload)).toBe(true);
			}, 60_000);
		}
	}

	test("a schema and the start-up check reject the same broken payload, naming the field", () => {
		const payload = fixture("claude", "PreToolUse.Bash.json");
		delete payload.tool_input;
		const spec = claudeBridge.events.PreToolUse;
		expect(checkShape(spec!.fields, payload)).toEqual(["tool_input: missing, expected an object"]);
		expect(Value.Check(agentPayloadSchemas(claudeBridge).PreToolUse as never, payload)).toBe(false);
		payload.tool_input = "rm";
		expect(checkShape(spec!.fields, payload)).toEqual(['tool_input: expected an object, got "rm"']);
	}, 60_000);

	test("checkShape: nested fields, optional and extra fields", () => {
		const shape = { a: str, b: opt(str), c: obj({ d: str }) };
		expect(checkShape(shape, { a: "x", c: { d: "y" }, extra: 1 })).toEqual([]);
		expect(checkShape(shape, { a: 1, c: {} })).toEqual(["a: expected a string, got 1", "c.d: missing, expected a string"]);
		expect(checkShape(shape, [])).toEqual(["payload: expected a JSON object, got []"]);
	}, 60_000);

	test("the registry loads each agent by name and nothing else", async () => {
		expect(bridgeNames()).toEqual(["claude", "codex", "gemini", "cursor", "copilot", "qwen", "droid", "auggie", "cline", "pi", "openclaw"]);
		for (const name of bridgeNames()) expect((await loadBridge(name))?.name).toBe(name);
		expect(loadBridge("toString")).toBeUndefined();
	}, 60_000);
});

describe("payload → event", () => {
	test("Claude Bash and Read become bash {command} and read {path}, ids kept", () => {
		expect(mapped(claudeBridge, "PreToolUse.Bash.json").event).toEqual({
			type: "tool_call",
			toolName: "bash",
			agentToolName: "Bash",
			toolCallId: "toolu_1",
			input: { command: "rm -rf build" },
		});
		expect(mapped(claudeBridge, "PreToolUse.Read.json").event).toMatchObject({ toolName: "read", input: { path: "/home/user/proj/.env" } });
	}, 60_000);

	test("Claude PostToolUse: content is the tool's text, details its raw output", () => {
		const read = mapped(claudeBridge, "PostToolUse.Read.json").event;
		expect(read).toMatchObject({
			type: "tool_result",
			toolName: "read",
			isError: false,
			content: [{ type: "text", text: "SERVICE=https://api.example.test\nAPI_KEY=sk-live-0000\n" }],
		});
		expect((read as { details: { file: { numLines: number } } }).details.file.numLines).toBe(3);
		expect(mapped(claudeBridge, "PostToolUse.Bash.json").event).toMatchObject({ content: [{ type: "text", text: "app.js" }] });
	}, 60_000);

	test("Codex, Gemini, Copilot (both spellings) and Cursor shell calls are all bash {command}", () => {
		const commands = [
			mapped(codexBridge, "PreToolUse.json"),
			mapped(geminiBridge, "BeforeTool.json"),
			mapped(copilotBridge, "preToolUse.json"),
			mapped(copilotBridge, "PreToolUse.json"),
			mapped(cursorBridge, "preToolUse.json"),
			mapped(cursorBridge, "beforeShellExecution.json"),
		].map((m) => m.event);
		for (const event of commands) expect(event).toMatchObject({ type: "tool_call", toolName: "bash", input: { command: "rm -rf build" } });
		expect((commands[1] as { toolCallId: string }).toolCallId).toStartWith("gemini_");
	}, 60_000);

	test("tool results: Codex's string, Gemini's llmContent, Copilot's textResultForLlm", () => {
		expect(mapped(codexBridge, "PostToolUse.with-output.json").event).toMatchObject({ content: [{ text: "REWRITTEN-BY-HOOK\n" }] });
		expect(mapped(geminiBridge, "AfterTool.json").event).toMatchObject({ content: [{ text: expect.stringContaining("Output: (empty)") }] });
		expect(mapped(copilotBridge, "postToolUse.json").event).toMatchObject({
			content: [{ text: "\n<shellId: 0 completed with exit code 0>" }],
		});
		expect(mapped(copilotBridge, "PostToolUse.json").event).toMatchObject({
			content: [{ text: "\n<shellId: 0 completed with exit code 0>" }],
		});
	}, 60_000);

	test("prompts, session start/end, stop", () => {
		expect(mapped(claudeBridge, "UserPromptSubmit.json").event).toEqual({
			type: "before_agent_start",
			prompt: "clean the build folder and show me the env file",
		});
		expect(mapped(codexBridge, "SessionStart.json").event).toEqual({ type: "session_start" });
		expect(mapped(codexBridge, "Stop.json").event).toEqual({ type: "agent_end", messages: [] });
		expect(mapped(geminiBridge, "SessionEnd.json").event).toEqual({ type: "session_shutdown" });
	}, 60_000);

	test("events without a counterpart and unknown events are 'none', not errors", () => {
		expect(mapPayload(copilotBridge, "userPromptTransformed", { cwd: "/p", prompt: "x", transformedPrompt: "y" }).kind).toBe("none");
		expect(mapPayload(claudeBridge, "Notification", { session_id: "s", hook_event_name: "Notification" }).kind).toBe("none");
		expect(mapPayload(claudeBridge, "NoSuchEvent", {}).kind).toBe("none");
	}, 60_000);

	test("Copilot camelCase payloads carry no event name: recognised by their fields, or told by --event", () => {
		const expected: Record<string, string> = {
			"preToolUse.json": "preToolUse",
			"postToolUse.json": "postToolUse",
			"postToolUse.nonzero-exit.json": "postToolUse",
			"sessionStart.json": "sessionStart",
			"userPromptSubmitted.json": "userPromptSubmitted",
			"userPromptTransformed.json": "userPromptTransformed",
			"agentStop.json": "agentStop",
			"sessionEnd.json": "sessionEnd",
			"permissionRequest.json": "permissionRequest",
			"PreToolUse.json": "PreToolUse",
		};
		for (const [file, name] of Object.entries(expected)) expect(copilotBridge.eventName(fixture("copilot", file), undefined)).toBe(name);
		expect(copilotBridge.eventName({ cwd: "/p" }, "preToolUse")).toBe("preToolUse");
		expect(copilotBridge.eventName({ cwd: "/p" }, undefined)).toBeUndefined();
	}, 60_000);

	test("a PreCompact becomes session_before_compact with its trigger and instructions", () => {
		const result = mapPayload(claudeBridge, "PreCompact", {
			session_id: "s",
			hook_event_name: "PreCompact",
			trigger: "manual",
			custom_instructions: "keep the plan",
		});
		expect(result).toMatchObject({
			event: { type: "session_before_compact", preparation: { trigger: "manual" }, branchEntries: [], customInstructions: "keep the plan" },
		});
	}, 60_000);
});

describe("tools both ways", () => {
	const rules = [shellRule("Bash"), ...fileRules({ read: "Read", write: "Write", edit: "Edit" }, true)];

	test("an Edit maps to edit {path, oldText, newText} and back with its other fields kept", () => {
		const input = { file_path: "/p/a.ts", old_string: "a", new_string: "b", replace_all: true };
		const tool = toBuiltin(rules, "Edit", input);
		expect(tool).toMatchObject({ toolName: "edit", input: { path: "/p/a.ts", oldText: "a", newText: "b" } });
		expect(toAgentInput(tool, input, { path: "/p/b.ts", oldText: "a", newText: "c" })).toEqual({
			replace_all: true,
			file_path: "/p/b.ts",
			old_string: "a",
			new_string: "c",
		});
	}, 60_000);

	test("a mapped field the hook leaves out is dropped; an unmapped tool's input is the hook's", () => {
		const input = { file_path: "/p/a", offset: 10, limit: 5 };
		const tool = toBuiltin(rules, "Read", input);
		expect(toAgentInput(tool, input, { path: "/p/a", limit: 5 })).toEqual({ file_path: "/p/a", limit: 5 });
		const grep = toBuiltin(rules, "Grep", { pattern: "x" });
		expect(grep).toEqual({ toolName: "Grep", input: { pattern: "x" } });
		expect(toAgentInput(grep, { pattern: "x" }, { pattern: "y" })).toEqual({ pattern: "y" });
	}, 60_000);

	test("a call missing a field the built-in tool needs keeps its own name and input", () => {
		expect(toBuiltin(rules, "Bash", { cmd: "ls" })).toEqual({ toolName: "Bash", input: { cmd: "ls" } });
		expect(toBuiltin(rules, "Write", { file_path: "/p" })).toEqual({ toolName: "Write", input: { file_path: "/p" } });
	}, 60_000);
});

describe("outcome → answer", () => {
	test("tool_call results: block, rewrite and nothing", () => {
		const event = mapped(claudeBridge, "PreToolUse.Bash.json").event;
		expect(toOutcome(event, { result: { block: true, reason: "no" }, stopped: "no" })).toEqual({ kind: "deny", reason: "no" });
		expect(toOutcome(event, { result: { input: { command: "ls" } } })).toEqual({ kind: "rewrite", input: { command: "ls" } });
		expect(toOutcome(event, { result: undefined })).toEqual({ kind: "none" });
	}, 60_000);

	test("Claude: replaced output keeps the tool's shape; unknown shapes fall back to block feedback", () => {
		const read = { name: "Read", input: {}, output: fixture("claude", "PostToolUse.Read.json").tool_response };
		expect(claudeToolOutput(read, "X", undefined)).toMatchObject({ type: "text", file: { content: "X", numLines: 3 } });
		expect(claudeToolOutput({ name: "mcp__a__b", input: {}, output: [{ type: "text", text: "s" }] }, "X", undefined)).toEqual([
			{ type: "text", text: "X" },
		]);
		expect(
			claudeToolOutput(
				{ name: "Write", input: {}, output: { filePath: "/p", success: true } },
				'{"filePath":"/p","success":false}',
				undefined,
			),
		).toEqual({ filePath: "/p", success: false });
		const payload = { ...fixture("claude", "PostToolUse.Bash.json"), tool_name: "Write", tool_response: { filePath: "/p" } };
		const { json, warnings } = answer(claudeBridge, "PostToolUse", { kind: "replace", text: "free text" }, payload);
		expect(json).toEqual({ decision: "block", reason: "free text" });
		expect(warnings[0]).toContain("Write");
	}, 60_000);

	test("Claude: replaced details are the whole output; notifications become systemMessage", () => {
		const payload = fixture("claude", "PostToolUse.Bash.json");
		expect(answer(claudeBridge, "PostToolUse", { kind: "replace", details: { stdout: "d" } }, payload).json).toEqual({
			hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: { stdout: "d" } },
		});
		const text = claudeBridge.answer("PreToolUse", {}, { kind: "none" }, { messages: ["[info] hi"], warn: () => {} });
		expect(JSON.parse(text)).toEqual({ systemMessage: "[info] hi" });
		expect(answer(claudeBridge, "PreCompact", { kind: "cancel", reason: "keep it" }).json).toEqual({
			decision: "block",
			reason: "keep it",
		});
	}, 60_000);

	test("Codex: exactly the observed keys; never an empty deny reason; no cancel", () => {
		expect(answer(codexBridge, "PreToolUse", { kind: "deny", reason: "" }).json).toEqual({
			hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "blocked by an xcsh hook" },
		});
		const none = codexBridge.answer("PreToolUse", {}, { kind: "none" }, { messages: ["[info] shown only on stderr"], warn: () => {} });
		expect(none).toBe("");
		expect(answer(codexBridge, "PostToolUse", { kind: "replace", text: "" }).json).toEqual({
			decision: "block",
			reason: "(output removed by a hook)",
		});
		const cancel = answer(codexBridge, "PreCompact", { kind: "cancel", reason: "r" });
		expect(cancel.text).toBe("");
		expect(cancel.warnings[0]).toContain("cannot cancel");
	}, 60_000);

	test("Cursor: non-MCP output only as context beside the original; a rewrite off preToolUse denies", () => {
		const payload = fixture("cursor", "postToolUse.json");
		const replaced = answer(cursorBridge, "postToolUse", { kind: "replace", text: "X" }, payload);
		expect(replaced.json).toEqual({ additional_context: "A hook replaced the output of Shell with:\nX" });
		expect(replaced.warnings[0]).toContain("only MCP");
		const shell = answer(cursorBridge, "beforeShellExecution", { kind: "rewrite", input: { command: "ls" } });
		expect(shell.json).toMatchObject({ permission: "deny", agent_message: expect.stringContaining('{"command":"ls"}') });
		expect(answer(cursorBridge, "stop", { kind: "none" }).text).toBe("{}");
	}, 60_000);

	test("Copilot: modifiedResult keeps the original resultType", () => {
		const payload = { ...fixture("copilot", "postToolUse.json"), toolResult: { resultType: "failure", textResultForLlm: "x" } };
		expect(answer(copilotBridge, "postToolUse", { kind: "replace", text: "T" }, payload).json).toEqual({
			modifiedResult: { resultType: "failure", textResultForLlm: "T" },
		});
	}, 60_000);

	test("the deny for an event nobody can name is each agent's tool deny", () => {
		expect(JSON.parse(geminiBridge.denyUnknown("r"))).toEqual({ decision: "deny", reason: "r" });
		expect(JSON.parse(cursorBridge.denyUnknown("r"))).toEqual({ permission: "deny", user_message: "r", agent_message: "r" });
		expect(JSON.parse(copilotBridge.denyUnknown("r"))).toEqual({ permissionDecision: "deny", permissionDecisionReason: "r" });
		expect(JSON.parse(claudeBridge.denyUnknown("r")).hookSpecificOutput.permissionDecision).toBe("deny");
	}, 60_000);
});

describe("who acts and through what (issue 22)", () => {
	const call = (agent: AgentBridge, name: string, payload: Record<string, unknown> = {}, event = "PreToolUse") =>
		agent.mcpTool?.({ name, input: {} }, payload, event);

	test("each agent's MCP form, and names that only look like one", () => {
		expect(call(claudeBridge, "mcp__files__delete_path")).toEqual({ server: "files", tool: "delete_path" });
		expect(call(claudeBridge, "mcp__my_files__x__y")).toEqual({ server: "my_files", tool: "x__y" });
		expect(call(claudeBridge, "mcp__a__b__c", { mcp_server: "a__b" })).toEqual({ server: "a__b", tool: "c" });
		expect(call(claudeBridge, "my__delete_path")).toBeUndefined();
		expect(call(codexBridge, "mcp__files__delete_path")).toEqual({ server: "files", tool: "delete_path" });
		expect(call(codexBridge, "apply_patch")).toBeUndefined();
		expect(call(geminiBridge, "mcp_files_delete_path")).toEqual({ server: "files", tool: "delete_path" });
		expect(call(geminiBridge, "mcp_my_files_delete_path", { mcp_context: { server_name: "my_files" } })).toEqual({
			server: "my_files",
			tool: "delete_path",
		});
		expect(call(geminiBridge, "run_shell_command")).toBeUndefined();
		expect(call(geminiBridge, "a__b")).toBeUndefined();
		expect(call(copilotBridge, "files-delete_path")).toEqual({ server: "files", tool: "delete_path" });
		expect(call(copilotBridge, "github-mcp-server-get_me")).toEqual({ server: "github-mcp-server", tool: "get_me" });
		expect(call(copilotBridge, "str_replace_editor")).toBeUndefined();
		expect(call(copilotBridge, "a__b")).toBeUndefined();
		expect(call(cursorBridge, "MCP:delete_path", {}, "preToolUse")).toEqual({ server: "", tool: "delete_path" });
		expect(call(cursorBridge, "delete_path", {}, "beforeMCPExecution")).toEqual({ server: "", tool: "delete_path" });
		expect(call(cursorBridge, "Shell", {}, "preToolUse")).toBeUndefined();
	});

	test("subagents: Claude/Codex agent_id, Copilot both spellings with the parent, Gemini none", () => {
		expect(claudeBridge.subagent?.({ agent_id: "a", agent_type: "Explore" })).toEqual({ id: "a", type: "Explore" });
		expect(claudeBridge.subagent?.({ session_id: "s" })).toBeUndefined();
		expect(codexBridge.subagent?.({ agent_id: "a" })).toEqual({ id: "a" });
		expect(copilotBridge.subagent?.({ agent_id: "a", agent_type: "task", parent_agent_id: "p" })).toEqual({
			id: "a",
			type: "task",
			parentId: "p",
		});
		expect(copilotBridge.subagent?.({ agentId: "a", parentAgentId: "p" })).toEqual({ id: "a", parentId: "p" });
		expect(geminiBridge.subagent).toBeUndefined();
	});

	test("a Copilot subagent's own session id (its agentId) gives way to the session that started it", () => {
		expect(copilotBridge.sessionId({ sessionId: "sub", agentId: "sub", parentAgentId: "top" })).toBe("top");
		expect(copilotBridge.sessionId({ session_id: "sub", agent_id: "sub", parent_agent_id: "top" })).toBe("top");
		expect(copilotBridge.sessionId({ sessionId: "top", agentId: "sub", parentAgentId: "top" })).toBe("top");
		expect(copilotBridge.sessionId({ sessionId: "only" })).toBe("only");
	});

	test("an MCP tool event: canonical toolName, the agent's name beside it; a rewrite goes back under the agent's name", async () => {
		const payload = { sessionId: "s", timestamp: 1, cwd: "/p", toolName: "files-delete_path", toolArgs: { path: "x" } };
		const result = mapPayload(copilotBridge, "preToolUse", payload);
		if (result.kind !== "event") throw new Error(JSON.stringify(result));
		expect(result.event).toMatchObject({
			toolName: "mcp__files__delete_path",
			agentToolName: "files-delete_path",
			mcp: { server: "files", tool: "delete_path" },
		});
		expect(answer(copilotBridge, "preToolUse", { kind: "rewrite", input: { path: "y" } }, payload).json).toEqual({
			modifiedArgs: { path: "y" },
		});
	});
});
