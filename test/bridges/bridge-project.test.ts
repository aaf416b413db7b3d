/** Where the bridge looks for hooks: the agent's project directory, discovery and trust (docs/contract.md#trust, #bridges). */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerOf, CLI, fixture, HOOKS, spawnRun } from "./_bridge.ts";
import { tempDir } from "../_helpers.ts";

let root: string;
let home: string;

/** A project with the policy hook as an (unapproved) project hook. */
function project(name: string): string {
	const dir = join(root, name);
	mkdirSync(join(dir, ".xcsh", "hooks"), { recursive: true });
	writeFileSync(join(dir, ".xcsh", "hooks", "policy.ts"), HOOKS["policy.ts"] as string);
	return dir;
}

const bridge = (agent: string, payload: unknown, env: Record<string, string> = {}, args: string[] = []) =>
	spawnRun([process.execPath, CLI, "bridge", agent, ...args], { stdin: JSON.stringify(payload), home, cwd: root, env });

beforeAll(() => {
	root = tempDir("xcsh-bridge-project-");
	home = join(root, "home");
	mkdirSync(home);
});

describe("the project directory", () => {
	const cases: Array<[agent: string, file: string, variable: string | undefined]> = [
		["claude", "PreToolUse.Bash.json", "CLAUDE_PROJECT_DIR"],
		["gemini", "BeforeTool.json", "GEMINI_PROJECT_DIR"],
		["cursor", "preToolUse.json", "CURSOR_PROJECT_DIR"],
		["copilot", "PreToolUse.json", "COPILOT_PROJECT_DIR"],
		["codex", "PreToolUse.json", undefined],
	];
	for (const [agent, file, variable] of cases) {
		test(`${agent}: ${variable ?? "the payload's cwd (Codex sets no variable)"} decides where project hooks are found`, async () => {
			const fromEnv = project(`${agent}-env`);
			const fromPayload = project(`${agent}-payload`);
			const payload = fixture(agent, file, fromPayload);
			// A variable of another agent (inherited from a parent agent) must not count.
			const env: Record<string, string> = variable ? { [variable]: fromEnv } : { CLAUDE_PROJECT_DIR: fromEnv };
			const run = await bridge(agent, payload, env);
			const chosen = variable ? fromEnv : fromPayload;
			expect(run.stderr).toContain(`skipped ${join(chosen, ".xcsh", "hooks", "policy.ts")}: project hook not approved yet`);
			expect(run.stderr).not.toContain(join(variable ? fromPayload : fromEnv, ".xcsh"));
			expect(run.code).toBe(0);
		}, 60_000);
	}

	test("an approved project hook guards the agent's calls (trust applies unchanged)", async () => {
		const dir = project("approved");
		const approve = await spawnRun([process.execPath, CLI, "trust", "approve", join(dir, ".xcsh", "hooks", "policy.ts")], {
			home,
			cwd: dir,
		});
		expect(approve.code).toBe(0);
		const answer = answerOf(await bridge("claude", fixture("claude", "PreToolUse.Bash.json", dir))) as {
			hookSpecificOutput: Record<string, string>;
		};
		expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
		expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("POLICY");
	}, 60_000);

	test("a project directory that does not exist falls back to the current one, said on stderr", async () => {
		const run = await bridge("claude", fixture("claude", "PreToolUse.Bash.json", join(root, "gone")), {}, ["--no-discovery"]);
		expect(answerOf(run)).toBeUndefined();
		expect(run.stderr).toContain(`project directory ${join(root, "gone")} does not exist`);
	}, 60_000);

	test("--cwd overrides the agent's directory", async () => {
		const dir = project("flag");
		const run = await bridge("claude", fixture("claude", "PreToolUse.Bash.json", join(root, "elsewhere")), {}, ["--cwd", dir]);
		expect(run.stderr).toContain(`skipped ${join(dir, ".xcsh", "hooks", "policy.ts")}`);
	}, 60_000);
});

describe("usage", () => {
	test("an unknown agent is exit 1 naming the agents", async () => {
		const run = await bridge("vim", {});
		expect(run.code).toBe(1);
		expect(run.stderr).toContain('unknown agent "vim"; expected one of: claude, codex, gemini, cursor, copilot');
		expect(run.stdout).toBe("");
	}, 60_000);

	test("a payload without an event name is answered as a denied tool call", async () => {
		const run = await bridge("claude", { session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } }, {}, ["--no-discovery"]);
		expect(answerOf(run)).toMatchObject({
			hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("names no event") },
		});
	}, 60_000);

	test("no stdin at all denies (fail closed)", async () => {
		const run = await spawnRun([process.execPath, CLI, "bridge", "gemini", "--no-discovery"], { home, cwd: root });
		expect(answerOf(run)).toEqual({ decision: "deny", reason: expect.stringContaining("stdin is empty") });
	}, 60_000);
});
