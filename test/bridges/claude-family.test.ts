/** Qwen Code and Factory Droid specifics the shared matrix does not cover (docs/agents/qwen.md, docs/agents/droid.md). */
import { beforeAll, describe, expect, test } from "bun:test";
import { answerOf, CLI, fixture, spawnRun, workspace } from "./_bridge.ts";

describe("Claude-family bridges", () => {
	let ws: ReturnType<typeof workspace>;
	beforeAll(() => {
		ws = workspace();
	});
	const bridge = (agent: string, payload: unknown, hooks: string[]) =>
		spawnRun([process.execPath, CLI, "bridge", agent, "--no-discovery", ...hooks.flatMap((h) => ["--hook", ws.hook(h)])], {
			stdin: JSON.stringify(payload),
			home: ws.home,
			cwd: ws.project,
		});

	test("qwen: the repeated UserPromptSubmit (empty prompt) runs no hooks, so context arrives once per prompt", async () => {
		const first = await bridge("qwen", fixture("qwen", "UserPromptSubmit.json", ws.project), ["policy.ts", "throws.ts"]);
		expect(first.stderr).toContain("PROMPT-HOOK-CRASHED");
		const repeat = await bridge("qwen", fixture("qwen", "UserPromptSubmit.repeat.json", ws.project), ["policy.ts", "throws.ts"]);
		expect(answerOf(repeat)).toBeUndefined();
		expect(repeat.stderr).not.toContain("PROMPT-HOOK-CRASHED");
	}, 30_000);

	test("qwen and droid: the shell tool reaches hooks as bash {command}", async () => {
		for (const agent of ["qwen", "droid"]) {
			const payload = fixture(agent, "PreToolUse.json", ws.project);
			const answer = answerOf(await bridge(agent, payload, ["policy.ts"])) as { hookSpecificOutput: Record<string, unknown> };
			expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
			expect(String(answer.hookSpecificOutput.permissionDecisionReason)).toContain("POLICY: rm -rf");
		}
	}, 30_000);

	test("droid: the project directory comes from FACTORY_PROJECT_DIR before the payload's cwd", async () => {
		const payload = { ...fixture("droid", "PreToolUse.json"), cwd: "/nonexistent/dir" };
		const run = await spawnRun([process.execPath, CLI, "bridge", "droid"], {
			stdin: JSON.stringify(payload),
			home: ws.home,
			cwd: ws.home,
			env: { FACTORY_PROJECT_DIR: ws.project },
		});
		expect(run.stderr).not.toContain("does not exist");
	}, 30_000);
});
