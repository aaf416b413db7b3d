/** Qwen Code and Factory Droid command hooks, each run by the library with its own agent's semantics (docs/agents/qwen.md, docs/agents/droid.md). */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BLOCK_RM_EXIT2, DUMP, dumped, dumpedEnv, library, rejection, setup, text } from "./_fixtures.ts";

const grouped = (event: string, command: string, extra: Record<string, unknown> = {}, matcher?: string) =>
	JSON.stringify({ hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, ...extra }] }] } });

describe("Qwen Code .qwen/settings.json", () => {
	test("a run_shell_command guard (exit 2 + stderr) blocks; the payload is Qwen's", async () => {
		const { dir, home } = setup({
			".qwen/settings.json": JSON.stringify({
				hooks: {
					PreToolUse: [
						{ matcher: "run_shell_command", hooks: [{ type: "command", command: ".qwen/hooks/guard.sh", timeout: 30 }] },
						{ matcher: "*", hooks: [{ type: "command", command: ".qwen/hooks/dump.sh" }] },
					],
				},
			}),
			".qwen/hooks/guard.sh": BLOCK_RM_EXIT2,
			".qwen/hooks/dump.sh": DUMP("qwen"),
			"build/x": "x",
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Blocked: rm -rf commands are not allowed");
		expect(existsSync(join(dir, "build/x"))).toBe(true);
		await lib.run("echo hi");
		expect(dumped(dir, "qwen")).toMatchObject({
			hook_event_name: "PreToolUse",
			tool_name: "run_shell_command",
			tool_input: { command: "echo hi" },
		});
		expect(dumpedEnv(dir, "qwen")).toMatchObject({ QWEN_PROJECT_DIR: dir });
	}, 30_000);

	test("top-level decision:deny blocks (Qwen reads it); updatedInput is ignored, as Qwen ignores it", async () => {
		const deny = setup({ ".qwen/settings.json": grouped("PreToolUse", `cat >/dev/null; echo '{"decision":"deny","reason":"no shell"}'`) });
		expect(await rejection((await library(deny.dir, deny.home)).run("echo x"))).toBe("no shell");
		const rewrite = setup({
			".qwen/settings.json": grouped(
				"PreToolUse",
				`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo REWRITTEN"}}}'`,
			),
		});
		expect(text(await (await library(rewrite.dir, rewrite.home)).run("echo ORIGINAL"))).toContain("ORIGINAL");
	}, 30_000);

	test("PostToolUse continue:false replaces the output with stopReason; exit 2 without stderr fails (closed here)", async () => {
		const post = setup({
			".qwen/settings.json": grouped("PostToolUse", `cat >/dev/null; echo '{"continue":false,"stopReason":"[redacted]"}'`),
		});
		expect(text(await (await library(post.dir, post.home)).run("echo secret"))).toBe("[redacted]");
		const silent = setup({ ".qwen/settings.json": grouped("PreToolUse", "exit 2") });
		expect(await rejection((await library(silent.dir, silent.home)).run("echo x"))).toContain("exited with code 2");
	}, 30_000);
});

describe("Factory Droid .factory/settings.json", () => {
	test("an Execute guard blocks; exit 2 without stderr blocks too; the payload is Droid's", async () => {
		const { dir, home } = setup({
			".factory/settings.json": JSON.stringify({
				hooks: {
					PreToolUse: [
						{ matcher: "Execute", hooks: [{ type: "command", command: ".factory/hooks/guard.sh" }] },
						{ matcher: "*", hooks: [{ type: "command", command: ".factory/hooks/dump.sh" }] },
					],
				},
			}),
			".factory/hooks/guard.sh": BLOCK_RM_EXIT2,
			".factory/hooks/dump.sh": DUMP("droid"),
			"build/x": "x",
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Blocked: rm -rf commands are not allowed");
		expect(existsSync(join(dir, "build/x"))).toBe(true);
		await lib.run("echo hi");
		expect(dumped(dir, "droid")).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Execute", tool_input: { command: "echo hi" } });
		expect(dumpedEnv(dir, "droid")).toMatchObject({ FACTORY_PROJECT_DIR: dir, DROID_PROJECT_DIR: dir });
		const silent = setup({ ".factory/settings.json": grouped("PreToolUse", "exit 2") });
		expect(await rejection((await library(silent.dir, silent.home)).run("echo x"))).toBe("Tool execution blocked by hook");
	}, 30_000);

	test("top-level decision:deny is ignored (as Droid ignores it); allow + updatedInput is merged and runs", async () => {
		const ignored = setup({ ".factory/settings.json": grouped("PreToolUse", `cat >/dev/null; echo '{"decision":"deny","reason":"x"}'`) });
		expect(text(await (await library(ignored.dir, ignored.home)).run("echo RAN"))).toContain("RAN");
		const rewrite = setup({
			".factory/settings.json": grouped(
				"PreToolUse",
				`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo REWRITTEN"}}}'`,
			),
		});
		const out = text(await (await library(rewrite.dir, rewrite.home)).run("echo ORIGINAL"));
		expect(out).toContain("REWRITTEN");
		expect(out).not.toContain("ORIGINAL");
	}, 30_000);
});
