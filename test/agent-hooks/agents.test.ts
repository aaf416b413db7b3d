/** Codex, Gemini CLI and Cursor command hooks, each run by the library with its own agent's semantics. */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BLOCK_RM_EXIT2, DUMP, dumped, dumpedEnv, library, rejection, setup, text } from "./_fixtures.ts";

const grouped = (event: string, command: string, extra: Record<string, unknown> = {}, matcher?: string) =>
	JSON.stringify({ hooks: { [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, ...extra }] }] } });

describe("Codex hooks.json", () => {
	test("Bash guard (exit 2 + stderr) blocks; the payload is Codex's (Bash {command}, turn_id, model, transcript_path null)", async () => {
		const { dir, home } = setup({
			".codex/hooks.json": JSON.stringify({
				hooks: {
					PreToolUse: [
						{ matcher: "^Bash$", hooks: [{ type: "command", command: ".codex/hooks/guard.sh", timeout: 30 }] },
						{ matcher: "Bash", hooks: [{ type: "command", command: ".codex/hooks/dump.sh" }] },
					],
				},
			}),
			".codex/hooks/guard.sh": BLOCK_RM_EXIT2,
			".codex/hooks/dump.sh": DUMP("codex"),
			"build/x": "x",
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Blocked: rm -rf commands are not allowed");
		expect(existsSync(join(dir, "build/x"))).toBe(true);
		await lib.run("echo hi");
		expect(dumped(dir, "codex")).toMatchObject({
			hook_event_name: "PreToolUse",
			tool_name: "Bash",
			tool_input: { command: "echo hi" },
			transcript_path: null,
			cwd: dir,
		});
		expect(dumped(dir, "codex")).toHaveProperty("turn_id");
	}, 60_000);

	test("exit 2 without a reason on stderr is a failed hook in Codex (it lets the call run): here it blocks", async () => {
		const { dir, home } = setup({ ".codex/hooks.json": grouped("PreToolUse", "exit 2") });
		expect(await rejection((await library(dir, home)).run("echo x"))).toContain("wrote no reason to stderr");
	}, 60_000);

	test("PostToolUse decision:block replaces the output with its reason (Codex's reading)", async () => {
		const { dir, home } = setup({
			".codex/hooks.json": grouped("PostToolUse", `cat >/dev/null; echo '{"decision":"block","reason":"output hidden by policy"}'`),
		});
		expect(text(await (await library(dir, home)).run("echo secret"))).toBe("output hidden by policy");
	}, 60_000);

	test("updatedInput without permissionDecision allow fails closed", async () => {
		const { dir, home } = setup({
			".codex/hooks.json": grouped(
				"PreToolUse",
				`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo x"}}}'`,
			),
		});
		expect(await rejection((await library(dir, home)).run("echo y"))).toContain("updatedInput without permissionDecision: allow");
	}, 60_000);
});

describe("Gemini CLI settings.json", () => {
	test("BeforeTool JSON deny blocks run_shell_command; timeout is in ms; GEMINI_PROJECT_DIR is set", async () => {
		const { dir, home } = setup({
			".gemini/settings.json": JSON.stringify({
				general: { vimMode: true },
				hooks: {
					enabled: true,
					BeforeTool: [
						{ matcher: "run_shell_command", hooks: [{ type: "command", name: "no-rm", command: ".gemini/hooks/deny.sh", timeout: 5000 }] },
						{ matcher: "run_shell.*", hooks: [{ type: "command", name: "dump", command: ".gemini/hooks/dump.sh", timeout: 5000 }] },
					],
				},
			}),
			".gemini/hooks/deny.sh": `#!/bin/sh\ngrep -q 'rm -rf' && { echo '{"decision":"deny","reason":"Security policy: rm -rf blocked"}'; exit 0; }\nexit 0\n`,
			".gemini/hooks/dump.sh": DUMP("gemini"),
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Security policy: rm -rf blocked");
		await lib.run("echo fine");
		expect(dumped(dir, "gemini")).toMatchObject({
			hook_event_name: "BeforeTool",
			tool_name: "run_shell_command",
			tool_input: { command: "echo fine" },
		});
		expect(typeof dumped(dir, "gemini").timestamp).toBe("string");
		expect(dumpedEnv(dir, "gemini")).toMatchObject({ GEMINI_PROJECT_DIR: dir, CLAUDE_PROJECT_DIR: dir });
	}, 60_000);

	test("text on stderr with exit 2 denies with that text; exit 1 (a warning in Gemini) fails closed", async () => {
		const deny = setup({ ".gemini/settings.json": grouped("BeforeTool", "echo 'no shell today' >&2; exit 2") });
		expect(await rejection((await library(deny.dir, deny.home)).run("echo x"))).toBe("no shell today");
		const warn = setup({ ".gemini/settings.json": grouped("BeforeTool", "echo careful >&2; exit 1") });
		expect(await rejection((await library(warn.dir, warn.home)).run("echo x"))).toContain("exited with code 1");
	}, 60_000);

	test("hookSpecificOutput.tool_input is merged over the arguments; AfterTool additionalContext is appended to the output", async () => {
		const { dir, home } = setup({
			".gemini/settings.json": JSON.stringify({
				hooks: {
					BeforeTool: [
						{
							hooks: [
								{
									type: "command",
									command: `cat >/dev/null; echo '{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo REWRITTEN"}}}'`,
								},
							],
						},
					],
					AfterTool: [
						{
							hooks: [
								{
									type: "command",
									command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"checked by policy"}}'`,
								},
							],
						},
					],
				},
			}),
		});
		const out = text(await (await library(dir, home)).run("echo original"));
		expect(out).toContain("REWRITTEN");
		expect(out).not.toContain("original");
		expect(out).toContain("checked by policy");
	}, 60_000);
});

describe("Cursor hooks.json", () => {
	test("preToolUse permission deny blocks Shell; beforeShellExecution matches on the command; CURSOR_PROJECT_DIR is set", async () => {
		const { dir, home } = setup({
			".cursor/hooks.json": JSON.stringify({
				version: 1,
				hooks: {
					preToolUse: [{ command: ".cursor/hooks/deny.sh", matcher: "Shell" }],
					beforeShellExecution: [{ command: ".cursor/hooks/dump.sh", matcher: "^echo" }],
				},
			}),
			".cursor/hooks/deny.sh": `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"permission":"deny","user_message":"rm -rf is blocked","agent_message":"Do not delete folders"}'; else echo '{}'; fi\n`,
			".cursor/hooks/dump.sh": DUMP("cursor"),
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Do not delete folders");
		await lib.run("echo hi");
		expect(dumped(dir, "cursor")).toMatchObject({
			hook_event_name: "beforeShellExecution",
			command: "echo hi",
			cwd: dir,
			workspace_roots: [dir],
		});
		expect(dumpedEnv(dir, "cursor").CURSOR_PROJECT_DIR).toBe(dir);
	}, 60_000);

	test("updated_input rewrites; output that is not JSON fails closed (Cursor's failClosed, always)", async () => {
		const rewrite = setup({
			".cursor/hooks.json": JSON.stringify({
				version: 1,
				hooks: { preToolUse: [{ command: `cat >/dev/null; echo '{"permission":"allow","updated_input":{"command":"echo CHANGED"}}'` }] },
			}),
		});
		expect(text(await (await library(rewrite.dir, rewrite.home)).run("echo before"))).toContain("CHANGED");
		const garbage = setup({ ".cursor/hooks.json": JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: "echo hello" }] } }) });
		expect(await rejection((await library(garbage.dir, garbage.home)).run("echo x"))).toContain("not JSON");
	}, 60_000);

	test("user hooks in ~/.cursor/hooks.json run from ~/.cursor", async () => {
		const { dir, home } = setup(
			{},
			{
				".cursor/hooks.json": JSON.stringify({
					version: 1,
					hooks: { preToolUse: [{ command: `cat >/dev/null; pwd > "$CURSOR_PROJECT_DIR/where.txt"; echo '{}'` }] },
				}),
			},
		);
		await (await library(dir, home)).run("echo x");
		expect((await Bun.file(join(dir, "where.txt")).text()).trim()).toBe(join(home, ".cursor"));
	}, 60_000);
});
