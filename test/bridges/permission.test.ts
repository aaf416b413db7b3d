/** `permission_request`: hooks answer the agent's own approval prompt (docs/ask.md). */
import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { codexBridge } from "../../src/agents/codex/bridge.ts";
import { copilotBridge } from "../../src/agents/copilot/bridge.ts";
import { qwenBridge } from "../../src/agents/qwen/bridge.ts";
import type { AgentBridge } from "../../src/agents/_shared/bridge-types.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { agentSpec } from "../../src/install/agents.ts";
import { loadHooks } from "../../src/hooks/loader.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { validateResult } from "../../src/hooks/validate.ts";
import { fixture, workspace } from "./_bridge.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

let ws: ReturnType<typeof workspace>;
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

beforeAll(() => {
	ws = workspace();
	const hooks: Record<string, string> = {
		// Records what it saw, denies rm -rf, approves `ls`, says nothing otherwise.
		"perm.ts": `import { appendFileSync } from "node:fs";
export default (pi) => pi.on("permission_request", (event) => {
	appendFileSync(${JSON.stringify(join(ws.project, "seen.jsonl"))}, JSON.stringify(event) + "\\n");
	const command = String(event.input.command ?? "");
	if (command.includes("rm -rf")) return { decision: "deny", reason: "PERM-DENY: not without review" };
	if (command === "ls") return { decision: "allow" };
});\n`,
		"perm-throws.ts": `export default (pi) => pi.on("permission_request", () => { throw new Error("PERM-HOOK-CRASHED"); });\n`,
	};
	for (const [name, text] of Object.entries(hooks)) writeFileSync(join(ws.project, name), text);
});

/** A permission payload of `agent`, from its captured PreToolUse, renamed (Claude, Codex, Qwen document the same fields). */
function permissionPayload(agent: string, file: string, command: string): Record<string, unknown> {
	const payload = fixture(agent, file, ws.project);
	payload.hook_event_name = "PermissionRequest";
	payload.tool_input = { ...(payload.tool_input as object), command };
	if (agent !== "codex") payload.permission_suggestions = [{ type: "addRules", rules: [{ toolName: "Bash" }] }];
	return payload;
}

async function answer(agent: AgentBridge, payload: Record<string, unknown>, hooks = ["perm.ts"]) {
	const run = await runBridge(agent, { stdin: bytes(payload), hookPaths: hooks.map((h) => ws.hook(h)), discovery: false });
	return { stdout: run.stdout, json: run.stdout ? (JSON.parse(run.stdout) as Record<string, any>) : undefined, decision: run.decision };
}

describe("combining: the first deny wins, no answer is no opinion", () => {
	test("deny beats allow at once; allow alone approves; invalid results are refused", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"a.ts": `export default (pi) => pi.on("permission_request", () => ({ decision: "allow" }));\n`,
			"b.ts": `export default (pi) => pi.on("permission_request", () => ({ decision: "deny", reason: "NO" }));\n`,
			"c.ts": `export default (pi) => pi.on("permission_request", () => { globalThis.__permRan = true; return { decision: "allow" }; });\n`,
		});
		const { hooks } = await loadHooks(["a.ts", "b.ts", "c.ts"], dir);
		const event = { type: "permission_request" as const, toolName: "bash", input: { command: "x" } };
		(globalThis as { __permRan?: boolean }).__permRan = false;
		expect(await new HookRunner(hooks, dir).emit(event)).toEqual({ decision: "deny", reason: "NO" });
		expect((globalThis as { __permRan?: boolean }).__permRan).toBe(false);
		expect(
			await new HookRunner(
				[hooks[0], hooks[2]].filter((h) => h !== undefined),
				dir,
			).emit(event),
		).toEqual({ decision: "allow" });
		expect(validateResult("permission_request", { decision: "maybe" }).ok).toBe(false);
	});
});

describe("each agent's approval prompt", () => {
	test("Claude Code: hookSpecificOutput.decision deny with the reason as message; allow; nothing", async () => {
		const denied = await answer(claudeBridge, permissionPayload("claude", "PreToolUse.Bash.json", "rm -rf data"));
		expect(denied.json).toEqual({
			hookSpecificOutput: {
				hookEventName: "PermissionRequest",
				decision: { behavior: "deny", message: expect.stringContaining("PERM-DENY: not without review") },
			},
		});
		expect(denied.decision).toMatchObject({ event: "PermissionRequest", tool: "bash", decision: "deny" });
		const allowed = await answer(claudeBridge, permissionPayload("claude", "PreToolUse.Bash.json", "ls"));
		expect(allowed.json).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
		expect((await answer(claudeBridge, permissionPayload("claude", "PreToolUse.Bash.json", "make"))).stdout).toBe("");
	}, 60_000);

	test("hooks see canonical tool names, the input and the agent's suggestions", async () => {
		await answer(qwenBridge, permissionPayload("qwen", "PreToolUse.json", "make seen"));
		const seen = (await Bun.file(join(ws.project, "seen.jsonl")).text())
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(seen.at(-1)).toMatchObject({
			type: "permission_request",
			toolName: "bash",
			agentToolName: "run_shell_command",
			input: { command: "make seen" },
			suggestions: [{ type: "addRules" }],
		});
	}, 60_000);

	test("Codex and Qwen Code: the same Claude-style answer", async () => {
		for (const [agent, name, file] of [
			[codexBridge, "codex", "PreToolUse.json"],
			[qwenBridge, "qwen", "PreToolUse.json"],
		] as const) {
			const denied = await answer(agent, permissionPayload(name, file, "rm -rf data"));
			expect(denied.json?.hookSpecificOutput).toMatchObject({ hookEventName: "PermissionRequest", decision: { behavior: "deny" } });
			expect(denied.json?.hookSpecificOutput.decision.message).toContain("PERM-DENY");
		}
	}, 60_000);

	test("Copilot CLI: {behavior, message}, for the camelCase payload under either key", async () => {
		for (const file of ["permissionRequest.json", "PermissionRequest.json"]) {
			const payload = fixture("copilot", file, ws.project);
			const denied = await answer(copilotBridge, payload);
			expect(denied.json).toEqual({ behavior: "deny", message: expect.stringContaining("PERM-DENY") });
			(payload.toolInput as Record<string, unknown>).command = "ls";
			expect((await answer(copilotBridge, payload)).json).toEqual({ behavior: "allow" });
		}
	}, 60_000);

	test("a hook that throws denies (fail closed), naming the error", async () => {
		const denied = await answer(claudeBridge, permissionPayload("claude", "PreToolUse.Bash.json", "ls"), ["perm-throws.ts"]);
		expect(denied.json?.hookSpecificOutput.decision).toMatchObject({
			behavior: "deny",
			message: expect.stringContaining("PERM-HOOK-CRASHED"),
		});
		const copilot = await answer(copilotBridge, fixture("copilot", "permissionRequest.json", ws.project), ["perm-throws.ts"]);
		expect(copilot.json).toMatchObject({ behavior: "deny", message: expect.stringContaining("PERM-HOOK-CRASHED") });
	}, 60_000);
});

test("install registers the agent's permission event where it has one", () => {
	for (const agent of ["claude", "codex", "qwen", "copilot"] as const)
		expect(agentSpec(agent).events.find((e) => e.name === "PermissionRequest")).toMatchObject({ xcsh: "permission_request" });
	expect(agentSpec("claude").events.find((e) => e.name === "PermissionRequest")?.guard).toBe(true);
	for (const agent of ["gemini", "droid", "cursor"] as const)
		expect(agentSpec(agent).events.some((e) => e.xcsh === "permission_request")).toBe(false);
});
