/**
 * "Done when": a project holding a real agent config with a guard blocks, in `xcsh-hooks run bash` and
 * `emit tool_call`, the call that guard blocks in the agent — for one hook of each of the four agents —
 * once the project's entries are approved. Real files, real processes (bounded), a private HOME.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BLOCK_RM_EXIT2, claudeSettings, JSON_DENY, setup } from "./_fixtures.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

async function cli(args: string[], dir: string, home: string, stdin?: string) {
	const proc = Bun.spawn([process.execPath, CLI, ...args], {
		cwd: dir,
		stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
		stdout: "pipe",
		stderr: "pipe",
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
	});
	const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	clearTimeout(timer);
	return { code, stdout, stderr };
}

const RM = JSON.stringify({ command: "rm -rf build" });

/** One project per agent, each with the guard written the way that agent's docs show it. */
const PROJECTS: Record<string, Record<string, string>> = {
	"Claude Code": {
		".claude/settings.json": claudeSettings(
			{
				PreToolUse: [
					{ matcher: "Bash", command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh' },
					{ matcher: "*", command: "xcsh-hooks bridge claude" },
				],
			},
			{ $schema: "https://json.schemastore.org/claude-code-settings.json", permissions: { allow: ["Bash(npm run test:*)"] } },
		),
		".claude/hooks/block-rm.sh": BLOCK_RM_EXIT2,
	},
	Codex: {
		".codex/hooks.json": JSON.stringify({
			hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh .codex/hooks/block-rm.sh", timeout: 30 }] }] },
		}),
		".codex/hooks/block-rm.sh": BLOCK_RM_EXIT2,
	},
	"Gemini CLI": {
		".gemini/settings.json": JSON.stringify({
			hooks: {
				BeforeTool: [
					{
						matcher: "run_shell_command",
						hooks: [{ type: "command", name: "deny-rm", command: "$GEMINI_PROJECT_DIR/.gemini/hooks/deny.sh", timeout: 10000 }],
					},
				],
			},
		}),
		".gemini/hooks/deny.sh": `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"decision":"deny","reason":"Blocked: rm -rf commands are not allowed"}'; fi\n`,
	},
	Cursor: {
		".cursor/hooks.json": JSON.stringify({
			version: 1,
			hooks: { preToolUse: [{ command: ".cursor/hooks/deny.sh", matcher: "Shell", failClosed: true }] },
		}),
		".cursor/hooks/deny.sh": `#!/bin/sh\nif grep -q 'rm -rf'; then echo '{"permission":"deny","agent_message":"Blocked: rm -rf commands are not allowed"}'; else echo '{}'; fi\n`,
	},
};

describe("xcsh-hooks run bash / emit tool_call with the agents' project hooks", () => {
	for (const [agent, files] of Object.entries(PROJECTS)) {
		test.concurrent(`${agent}: skipped until approved; once approved, blocks rm -rf exactly as the agent does`, async () => {
			const { dir, home } = setup({ ...files, "build/app.js": "x" });
			const before = await cli(["run", "bash", "--input", JSON.stringify({ command: "echo unapproved" })], dir, home);
			expect(before.code).toBe(0);
			expect(before.stderr).toContain("xcsh-hooks trust approve");

			const approve = await cli(["trust", "approve", "--all"], dir, home);
			expect(approve.code).toBe(0);
			const blocked = await cli(["run", "bash", "--input", RM], dir, home);
			expect(blocked.code).toBe(2);
			expect(blocked.stderr).toContain("Blocked: rm -rf commands are not allowed");
			expect(existsSync(join(dir, "build", "app.js"))).toBe(true);

			const emit = await cli(
				["emit", "tool_call", "--json"],
				dir,
				home,
				JSON.stringify({ toolName: "bash", input: { command: "rm -rf build" } }),
			);
			expect(emit.code).toBe(2);
			expect(JSON.parse(emit.stdout).result).toEqual({ block: true, reason: "Blocked: rm -rf commands are not allowed" });

			const allowed = await cli(["run", "bash", "--input", JSON.stringify({ command: "echo allowed" })], dir, home);
			expect(allowed.code).toBe(0);
			expect(allowed.stdout).toContain("allowed");
		}, 60_000);
	}

	test.concurrent("list shows agent, level, event, matcher and command; the bridge entry is not a hook", async () => {
		const { dir, home } = setup(PROJECTS["Claude Code"]);
		const list = await cli(["list", "--json"], dir, home);
		expect(list.code).toBe(0);
		const hooks = JSON.parse(list.stdout).hooks.filter((h: { provider: string }) => h.provider === "claude-settings");
		expect(hooks).toEqual([
			expect.objectContaining({
				path: `${join(dir, ".claude", "settings.json")}#hooks.PreToolUse[0].hooks[0]`,
				level: "project",
				agent: "claude",
				event: "PreToolUse",
				matcher: "Bash",
				command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh',
				status: "not-approved",
			}),
		]);
		const table = await cli(["list"], dir, home);
		expect(table.stdout).toMatch(
			/not approved\s+project\s+\.claude\/settings\.json#hooks\.PreToolUse\[0\]\.hooks\[0\]\n\s+claude PreToolUse on Bash\n\s+\$ "\$CLAUDE_PROJECT_DIR"\/\.claude\/hooks\/block-rm\.sh/,
		);
	}, 60_000);

	test.concurrent("an approved entry whose script or command changed fails closed, naming the trust command", async () => {
		const { dir, home } = setup(PROJECTS["Claude Code"]);
		const settings = join(dir, ".claude", "settings.json");
		expect((await cli(["trust", "approve", ".claude/settings.json"], dir, home)).code).toBe(0);
		expect((await cli(["run", "bash", "--input", JSON.stringify({ command: "echo ok" })], dir, home)).code).toBe(0);

		writeFileSync(join(dir, ".claude", "hooks", "block-rm.sh"), "#!/bin/sh\nexit 0\n");
		const script = await cli(["run", "bash", "--input", JSON.stringify({ command: "echo ok" })], dir, home);
		expect(script.code).toBe(2);
		expect(script.stderr).toContain(`xcsh-hooks trust approve ${settings}`);
		const status = await cli(["trust", "--json"], dir, home);
		expect(JSON.parse(status.stdout).hooks).toEqual([{ path: `${settings}#hooks.PreToolUse[0].hooks[0]`, status: "changed" }]);

		writeFileSync(join(dir, ".claude", "hooks", "block-rm.sh"), BLOCK_RM_EXIT2);
		expect((await cli(["run", "bash", "--input", JSON.stringify({ command: "echo ok" })], dir, home)).code).toBe(0);
		writeFileSync(settings, claudeSettings({ PreToolUse: [{ matcher: "Bash", command: "true" }] }));
		const command = await cli(["run", "bash", "--input", JSON.stringify({ command: "echo ok" })], dir, home);
		expect(command.code).toBe(2);
		expect(command.stderr).toContain("changed since it was approved");
	}, 60_000);

	test.concurrent("user-level entries run without approval (the user's own files); JSON deny from ~/.claude/settings.json", async () => {
		const { dir, home } = setup(
			{ "build/app.js": "x" },
			{
				".claude/settings.json": claudeSettings({ PreToolUse: [{ matcher: "Bash", command: "$HOME/.claude/hooks/deny.sh" }] }),
				".claude/hooks/deny.sh": JSON_DENY,
			},
		);
		const run = await cli(["run", "bash", "--input", RM], dir, home);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("Destructive command blocked by hook");
		expect(existsSync(join(dir, "build", "app.js"))).toBe(true);
	}, 60_000);
});
