/** Claude Code's command hooks, run by the library with Claude's semantics (payload, env, exit codes, JSON answers). */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
	BLOCK_RM_EXIT2,
	claudeSettings,
	DUMP,
	dumped,
	dumpedEnv,
	JSON_DENY,
	library,
	POST_CONTEXT,
	REWRITE_RM,
	rejection,
	setup,
	text,
} from "./_fixtures.ts";

const GUARD = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh';

describe("Claude Code hooks through HookRunner + HookToolWrapper", () => {
	test("the documented rm -rf guard (exit 2) blocks with its stderr; other commands run", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings(
				{ PreToolUse: [{ matcher: "Bash", command: GUARD }] },
				{ permissions: { allow: ["Bash(ls:*)"] }, model: "opus" },
			),
			".claude/hooks/guard.sh": BLOCK_RM_EXIT2,
			"build/app.js": "x",
		});
		const lib = await library(dir, home);
		expect(lib.loaded.errors).toEqual([]);
		expect(await rejection(lib.run("rm -rf build"))).toBe("Blocked: rm -rf commands are not allowed");
		expect(existsSync(join(dir, "build", "app.js"))).toBe(true);
		expect(text(await lib.run("echo fine"))).toContain("fine");
	}, 60_000);

	test("a JSON deny (permissionDecision) blocks with its reason", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({ PreToolUse: [{ matcher: "Bash", command: ".claude/hooks/deny.sh" }] }),
			".claude/hooks/deny.sh": JSON_DENY,
		});
		const lib = await library(dir, home);
		expect(await rejection(lib.run("rm -rf /tmp/nothing-here"))).toBe("Destructive command blocked by hook");
		expect(text(await lib.run("echo ok"))).toContain("ok");
	}, 60_000);

	test("updatedInput rewrites the call: the rewritten command runs, mapped back to bash {command}", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({ PreToolUse: [{ matcher: "Bash", command: ".claude/hooks/rewrite.ts" }] }),
			".claude/hooks/rewrite.ts": REWRITE_RM,
			"build/app.js": "x",
		});
		const lib = await library(dir, home);
		expect(text(await lib.run("rm -rf build"))).toContain("would remove build");
		expect(existsSync(join(dir, "build", "app.js"))).toBe(true);
	}, 60_000);

	test("PostToolUse additionalContext becomes a message the model sees; the output is kept", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({ PostToolUse: [{ matcher: "Bash", command: ".claude/hooks/context.sh" }] }),
			".claude/hooks/context.sh": POST_CONTEXT,
		});
		const lib = await library(dir, home);
		expect(text(await lib.run("echo out"))).toContain("out");
		expect(lib.messages).toHaveLength(1);
		expect(lib.messages[0]?.message).toMatchObject({
			customType: "agent-hook-context",
			content: "Remember: run the linter after editing",
			display: true,
		});
		expect(lib.messages[0]?.message.details).toMatchObject({ agent: "claude", event: "PostToolUse" });
	}, 60_000);

	test("updatedToolOutput replaces the output (Bash shape: stdout)", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({ PostToolUse: [{ command: ".claude/hooks/redact.sh" }] }),
			".claude/hooks/redact.sh": `#!/bin/sh\ncat >/dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[redacted]","stderr":"","interrupted":false,"isImage":false}}}'\n`,
		});
		const lib = await library(dir, home);
		expect(text(await lib.run("echo secret=hunter2"))).toBe("[redacted]");
	}, 60_000);

	test("the payload is Claude's: Bash {command}, ids, cwd, hook_event_name; CLAUDE_PROJECT_DIR is set; event data never reaches the command line", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({
				PreToolUse: [{ matcher: "Bash|Read", command: "sh .claude/hooks/dump.sh" }],
				PostToolUse: [{ matcher: "Bash", command: ".claude/hooks/post.sh" }],
			}),
			".claude/hooks/dump.sh": DUMP("pre"),
			".claude/hooks/post.sh": DUMP("post"),
		});
		const lib = await library(dir, home);
		await lib.run("echo '$(touch pwned)' `touch pwned2`; true");
		const pre = dumped(dir, "pre");
		expect(pre).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", cwd: dir, permission_mode: "default" });
		expect(pre.tool_input).toEqual({ command: "echo '$(touch pwned)' `touch pwned2`; true" });
		expect(String(pre.tool_use_id)).toMatch(/^call_/);
		expect(typeof pre.session_id).toBe("string");
		expect(dumpedEnv(dir, "pre").CLAUDE_PROJECT_DIR).toBe(dir);
		const post = dumped(dir, "post");
		expect(post).toMatchObject({
			hook_event_name: "PostToolUse",
			tool_name: "Bash",
			tool_response: { stdout: expect.stringContaining("$(touch pwned)"), stderr: "" },
		});
		expect(existsSync(join(dir, "pwned"))).toBe(false); // the tool's own shell ran `touch pwned2`, the hook's did not
	}, 60_000);

	test("read maps to Read {file_path} with an absolute path; a matcher of exact names does not match other tools", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({
				PreToolUse: [
					{ matcher: "Read", command: ".claude/hooks/dump.sh" },
					{ matcher: "Write|Edit", command: "exit 2" },
				],
			}),
			".claude/hooks/dump.sh": DUMP("read"),
			"notes.txt": "hello\n",
		});
		const { loaded, runner } = await library(dir, home);
		const { createBuiltinTools } = await import("../../src/tools/builtin.ts");
		const { HookToolWrapper } = await import("../../src/hooks/tool-wrapper.ts");
		expect(loaded.hooks).toHaveLength(2);
		const read = new HookToolWrapper(createBuiltinTools(dir).read, runner);
		expect(text(await read.execute("r1", { path: "notes.txt" }))).toContain("hello");
		expect(dumped(dir, "read")).toMatchObject({ tool_name: "Read", tool_input: { file_path: join(dir, "notes.txt") } });
	}, 60_000);

	test("where Claude fails open we fail closed: exit 1, a timeout, unparseable JSON, a bad permissionDecision all block", async () => {
		for (const [command, needle] of [
			["echo oops >&2; exit 1", "exited with code 1: oops"],
			["sleep 5", "timed out after 300 ms"],
			["echo '{not json'", "invalid JSON"],
			[`echo '{"hookSpecificOutput":{"permissionDecision":"maybe"}}'`, "permissionDecision must be"],
		] as const) {
			const { dir, home } = setup({
				".claude/settings.json": JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command, timeout: 0.3 }] }] } }),
			});
			const lib = await library(dir, home);
			const message = await rejection(lib.run("echo should-not-run"));
			expect(message).toContain(needle);
			expect(message).toContain("fail closed");
		}
	}, 60_000);

	test("a failing PostToolUse hook is reported through onError; the output stands", async () => {
		const { dir, home } = setup({ ".claude/settings.json": claudeSettings({ PostToolUse: [{ command: "exit 3" }] }) });
		const lib = await library(dir, home);
		expect(text(await lib.run("echo kept"))).toContain("kept");
		expect(lib.errors.map((e) => e.error)).toEqual([expect.stringContaining("exited with code 3")]);
	}, 60_000);

	test("UserPromptSubmit context becomes the before_agent_start message; Stop decision:block keeps the agent working", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({
				UserPromptSubmit: [{ command: "echo 'Current branch: main'" }],
				Stop: [{ command: `echo '{"decision":"block","reason":"tests are still failing"}'` }],
			}),
		});
		const lib = await library(dir, home);
		const started = await lib.runner.emitBeforeAgentStart("fix the bug");
		expect(started?.message).toMatchObject({ customType: "agent-hook-context", content: "Current branch: main" });
		await lib.runner.emit({ type: "agent_end", messages: [] });
		expect(lib.messages).toEqual([
			{ message: expect.objectContaining({ content: "tests are still failing" }), options: { triggerTurn: true } },
		]);
	}, 60_000);
});
