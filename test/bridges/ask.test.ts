/** A hook's ask in every bridge: the agent's own ask where it honours one, else a deny that names the ask (docs/ask.md). */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { auggieBridge } from "../../src/agents/auggie/bridge.ts";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { clineBridge } from "../../src/agents/cline/bridge.ts";
import { codexBridge } from "../../src/agents/codex/bridge.ts";
import { copilotBridge } from "../../src/agents/copilot/bridge.ts";
import { cursorBridge } from "../../src/agents/cursor/bridge.ts";
import { droidBridge } from "../../src/agents/droid/bridge.ts";
import { geminiBridge } from "../../src/agents/gemini/bridge.ts";
import { openclawBridge } from "../../src/agents/openclaw/bridge.ts";
import { piBridge } from "../../src/agents/pi/bridge.ts";
import { qwenBridge } from "../../src/agents/qwen/bridge.ts";
import type { AgentBridge } from "../../src/agents/_shared/bridge-types.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { fixture, workspace } from "./_bridge.ts";

let ws: ReturnType<typeof workspace>;
const ASK = "ASK-BY-XCSH-HOOK: rm -rf needs a person";
beforeAll(() => {
	ws = workspace();
	writeFileSync(
		join(ws.project, "asks.ts"),
		`export default (pi) => pi.on("tool_call", (event) => String(event.input.command ?? "").includes("rm -rf") ? { ask: true, reason: ${JSON.stringify(ASK)} } : undefined);\n`,
	);
	// An allow after the ask (another hook) must not undo it.
	writeFileSync(join(ws.project, "allows.ts"), `export default (pi) => pi.on("tool_call", () => ({ reason: "fine by me" }));\n`);
	writeFileSync(
		join(ws.project, "asks-rewrites.ts"),
		`export default (pi) => pi.on("tool_call", (event) => ({ ask: true, reason: ${JSON.stringify(ASK)}, input: { ...event.input, command: "echo SAFER" } }));\n`,
	);
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

async function ask(agent: AgentBridge, agentName: string, file: string, hooks = ["asks.ts", "allows.ts"], event?: string) {
	const answer = await runBridge(agent, {
		stdin: bytes(fixture(agentName, file, ws.project)),
		hookPaths: hooks.map((name) => ws.hook(name)),
		discovery: false,
		...(event ? { event } : {}),
	});
	return { json: JSON.parse(answer.stdout) as Record<string, any>, decision: answer.decision };
}

describe("an ask the agent honours is answered as its own ask, with the reason", () => {
	test("Claude Code: permissionDecision ask", async () => {
		const { json, decision } = await ask(claudeBridge, "claude", "PreToolUse.Bash.json");
		expect(json.hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "ask" });
		expect(json.hookSpecificOutput.permissionDecisionReason).toStartWith(ASK);
		expect(decision).toMatchObject({ decision: "ask", reason: expect.stringContaining(ASK) });
	}, 60_000);

	test("Claude Code: an ask about a rewritten call carries the rewrite (Claude asks about what would run)", async () => {
		const { json } = await ask(claudeBridge, "claude", "PreToolUse.Bash.json", ["asks-rewrites.ts"]);
		expect(json.hookSpecificOutput).toMatchObject({ permissionDecision: "ask", updatedInput: { command: "echo SAFER" } });
	}, 60_000);

	test("Copilot CLI, camelCase and PascalCase: permissionDecision ask", async () => {
		for (const file of ["preToolUse.json", "PreToolUse.json"]) {
			const { json } = await ask(copilotBridge, "copilot", file);
			expect(json.permissionDecision).toBe("ask");
			expect(json.permissionDecisionReason).toStartWith(ASK);
		}
	}, 60_000);

	test("Qwen Code: permissionDecision ask", async () => {
		const { json } = await ask(qwenBridge, "qwen", "PreToolUse.json");
		expect(json.hookSpecificOutput).toMatchObject({ permissionDecision: "ask", permissionDecisionReason: expect.stringContaining(ASK) });
	}, 60_000);

	test("Copilot and Qwen cannot carry a rewrite with their ask: an ask about a rewritten call is a deny", async () => {
		const copilot = await ask(copilotBridge, "copilot", "preToolUse.json", ["asks-rewrites.ts"]);
		expect(copilot.json).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringContaining(ASK) });
		expect(copilot.json.modifiedArgs).toBeUndefined();
		const qwen = await ask(qwenBridge, "qwen", "PreToolUse.json", ["asks-rewrites.ts"]);
		expect(qwen.json.hookSpecificOutput.permissionDecision).toBe("deny");
	}, 60_000);
});

describe("where an ask could end as a run, it is our deny, and the reason says a hook asked", () => {
	const naming = (text: string) => {
		expect(text).toContain(ASK);
		expect(text).toContain("a hook asks for confirmation");
	};

	test("Codex (reads ask as a failed hook, which runs the call)", async () => {
		const { json, decision } = await ask(codexBridge, "codex", "PreToolUse.json");
		expect(Object.keys(json)).toEqual(["hookSpecificOutput"]);
		expect(json.hookSpecificOutput.permissionDecision).toBe("deny");
		naming(json.hookSpecificOutput.permissionDecisionReason);
		expect(decision?.decision).toBe("ask");
	}, 60_000);

	test("Auggie (ran the call on an ask in --print)", async () => {
		const { json } = await ask(auggieBridge, "auggie", "PreToolUse.json");
		expect(json.hookSpecificOutput.permissionDecision).toBe("deny");
		naming(json.hookSpecificOutput.permissionDecisionReason);
	}, 60_000);

	test("Factory Droid (ran the call on an ask)", async () => {
		const { json } = await ask(droidBridge, "droid", "PreToolUse.json");
		expect(json.hookSpecificOutput.permissionDecision).toBe("deny");
		naming(json.hookSpecificOutput.permissionDecisionReason);
	}, 60_000);

	test("Cline (no ask it honours headless): the command is replaced by one that reports the reason", async () => {
		const { json } = await ask(clineBridge, "cline", "PreToolUse.json");
		naming(json.contextModification);
		expect(json.overrideInput.commands).toHaveLength(1);
		expect(json.overrideInput.commands[0]).toStartWith("printf '%s\\n' 'Not run: ");
	}, 60_000);

	test("Gemini CLI (its ask waits forever in a headless run)", async () => {
		const { json } = await ask(geminiBridge, "gemini", "BeforeTool.json");
		expect(json.decision).toBe("deny");
		naming(json.reason);
	}, 60_000);

	test("OpenClaw (its plugin's before_tool_call blocks or lets the call run)", async () => {
		const payload = { type: "before_tool_call", cwd: ws.project, sessionId: "s1", toolName: "exec", params: { command: "rm -rf data" } };
		const answer = await runBridge(openclawBridge, {
			stdin: bytes(payload),
			hookPaths: ["asks.ts", "allows.ts"].map((name) => ws.hook(name)),
			discovery: false,
		});
		const json = JSON.parse(answer.stdout) as { block?: boolean; blockReason: string };
		expect(json.block).toBe(true);
		naming(json.blockReason);
		expect(answer.decision).toMatchObject({ decision: "ask" });
	}, 60_000);

	test("Cursor (ask not enforced on preToolUse)", async () => {
		const { json } = await ask(cursorBridge, "cursor", "preToolUse.json");
		expect(json.permission).toBe("deny");
		naming(json.agent_message);
	}, 60_000);

	test("pi (its extension blocks or allows)", async () => {
		const { json } = await ask(piBridge, "pi", "tool_call.json");
		expect(json.block).toBe(true);
		naming(json.reason);
	}, 60_000);
});
