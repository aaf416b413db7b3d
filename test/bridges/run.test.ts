/** The shared flow in-process: the answer, the stderr lines and the decision record for the log. */
import { beforeAll, describe, expect, test } from "bun:test";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { codexBridge } from "../../src/agents/codex/bridge.ts";
import { runBridge } from "../../src/agent-call/run.ts";
import { fixture, workspace } from "./_bridge.ts";

let ws: ReturnType<typeof workspace>;
beforeAll(() => {
	ws = workspace();
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("runBridge", () => {
	test("a guard event's decision is recorded: agent, session, event, tool, reason, time", async () => {
		const answer = await runBridge(claudeBridge, {
			stdin: bytes(fixture("claude", "PreToolUse.Bash.json", ws.project)),
			hookPaths: [ws.hook("policy.ts")],
			discovery: false,
		});
		expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
		expect(answer.decision).toMatchObject({
			agent: "claude",
			session: "9e707540-21f2-4820-a4df-019d45e214df",
			event: "PreToolUse",
			tool: "bash",
			decision: "deny",
			reason: expect.stringContaining("POLICY"),
		});
		expect(answer.decision?.durationMs).toBeGreaterThan(0);
		expect(answer.settings).toBeDefined();
	}, 60_000);

	test("rewrites and allows are recorded too; other events record nothing", async () => {
		const payload = fixture("codex", "PreToolUse.json", ws.project);
		(payload.tool_input as Record<string, unknown>).command = "echo REWRITE-ME";
		expect(
			(await runBridge(codexBridge, { stdin: bytes(payload), hookPaths: [ws.hook("policy.ts")], discovery: false })).decision?.decision,
		).toBe("rewrite");
		(payload.tool_input as Record<string, unknown>).command = "ls";
		expect(
			(await runBridge(codexBridge, { stdin: bytes(payload), hookPaths: [ws.hook("policy.ts")], discovery: false })).decision?.decision,
		).toBe("allow");
		const prompt = await runBridge(codexBridge, {
			stdin: bytes(fixture("codex", "UserPromptSubmit.json", ws.project)),
			hookPaths: [ws.hook("policy.ts")],
			discovery: false,
		});
		expect(prompt.decision).toBeUndefined();
	}, 60_000);

	test("a rewrite the built-in tool would refuse is denied, naming the field", async () => {
		const payload = fixture("claude", "PreToolUse.Bash.json", ws.project);
		const hook = ws.hook("bad-rewrite.ts");
		await Bun.write(hook, `export default (pi) => pi.on("tool_call", () => ({ input: { command: 42 } }));\n`);
		const answer = await runBridge(claudeBridge, { stdin: bytes(payload), hookPaths: [hook], discovery: false });
		expect(JSON.parse(answer.stdout).hookSpecificOutput).toMatchObject({
			permissionDecision: "deny",
			permissionDecisionReason: expect.stringContaining("command"),
		});
	}, 60_000);

	test("an unreadable stdin on a guard is a deny recorded as such", async () => {
		const answer = await runBridge(claudeBridge, { stdin: new Error("stdin holds more than 10 bytes"), hookPaths: [], discovery: false });
		expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecisionReason).toContain("more than 10 bytes");
		expect(answer.decision?.decision).toBe("deny");
	}, 60_000);
});

describe("reading stdin", () => {
	test("more than the cap is refused, never read to the end; a payload under it is read whole", async () => {
		const script = `import { readStdinBytes } from ${JSON.stringify(`${import.meta.dir}/../../src/process/stdin.ts`)};
try { console.log("read " + readStdinBytes(100_000).length); } catch (e) { console.log(e.message); }`;
		const run = async (size: number) => {
			const proc = Bun.spawn([process.execPath, "-e", script], {
				env: process.env,
				stdin: new Uint8Array(size).fill(0x61),
				stdout: "pipe",
				stderr: "pipe",
			});
			return (await new Response(proc.stdout).text()).trim();
		};
		expect(await run(300_000)).toBe("stdin holds more than 100000 bytes; refusing a payload that large");
		expect(await run(99_999)).toBe("read 99999");
	}, 60_000);
});

describe("rewrites", () => {
	test("a hook returning the input unchanged is no rewrite (no implicit approval)", async () => {
		const hook = ws.hook("same-input.ts");
		await Bun.write(hook, `export default (pi) => pi.on("tool_call", (event) => ({ input: { ...event.input } }));\n`);
		const answer = await runBridge(claudeBridge, {
			stdin: bytes(fixture("claude", "PreToolUse.Bash.json", ws.project)),
			hookPaths: [hook],
			discovery: false,
		});
		expect(answer.stdout).toBe("");
		expect(answer.decision?.decision).toBe("allow");
	}, 60_000);
});

describe("answers strict parsers can read", () => {
	// Rust's serde (Codex, Copilot) rejects an unpaired surrogate escape: an unparseable answer is a
	// failed hook there, and the call runs. A reason cut at 40 UTF-16 units halves the emoji here.
	const command = `rm -rf build # ${"x".repeat(24)}😀 more`;
	const strictlyParsed = (stdout: string) => {
		expect(stdout).not.toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/);
		expect(stdout.isWellFormed()).toBe(true);
		return JSON.parse(stdout);
	};
	test("a deny reason ending in half of an emoji is sent with U+FFFD in its place", async () => {
		const hook = ws.hook("slice-reason.ts");
		await Bun.write(
			hook,
			`export default (pi) => pi.on("tool_call", (e) => ({ block: true, reason: "refused: " + e.input.command.slice(0, 40) }));\n`,
		);
		const payload = fixture("codex", "PreToolUse.json", ws.project);
		(payload.tool_input as Record<string, unknown>).command = command;
		const answer = await runBridge(codexBridge, { stdin: bytes(payload), hookPaths: [hook], discovery: false });
		const reason = strictlyParsed(answer.stdout).hookSpecificOutput.permissionDecisionReason as string;
		expect(reason).toContain(`${"x".repeat(24)}\ufffd`);
	}, 60_000);

	test("so is a rewritten command holding half of one", async () => {
		const hook = ws.hook("slice-rewrite.ts");
		await Bun.write(
			hook,
			`export default (pi) => pi.on("tool_call", (e) => ({ input: { command: "echo " + e.input.command.slice(0, 40) } }));\n`,
		);
		const payload = fixture("claude", "PreToolUse.Bash.json", ws.project);
		(payload.tool_input as Record<string, unknown>).command = command;
		const answer = await runBridge(claudeBridge, { stdin: bytes(payload), hookPaths: [hook], discovery: false });
		expect(strictlyParsed(answer.stdout).hookSpecificOutput.updatedInput.command).toEndWith("\ufffd");
		expect(answer.decision?.decision).toBe("rewrite");
	}, 60_000);
});
