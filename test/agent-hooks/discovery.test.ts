/** The four agent-config providers: what becomes a hook, how it is keyed, what is skipped, and malformed files. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Hook, hookKey } from "../../src/discovery/hooks-capability.ts";
import { loadCapability } from "../../src/discovery/register.ts";
import "../../src/discovery/register.ts";
import { matches } from "../../src/agents/_shared/matcher.ts";
import { setup } from "./_fixtures.ts";

const AGENT_PROVIDERS = ["claude-settings", "codex-hooks", "gemini-settings", "cursor-hooks"];

async function discover(dir: string, home: string) {
	const result = await loadCapability<Hook>("hooks", { cwd: dir, home, providers: AGENT_PROVIDERS });
	return {
		...result,
		rows: result.items.map((h) => [h._source.provider, h.level, h.entry?.event, h.entry?.matcher ?? null, h.entry?.command]),
	};
}

describe("agent config providers", () => {
	test("each command entry of the seven files is a hook with agent, level, event, matcher and command; other content is ignored", async () => {
		const { dir, home } = setup(
			{
				".claude/settings.json": JSON.stringify({
					permissions: { deny: ["Read(.env)"] },
					env: { A: "1" },
					hooks: {
						PreToolUse: [
							{
								matcher: "Bash",
								hooks: [
									{ type: "command", command: "./a.sh" },
									{ type: "http", url: "http://127.0.0.1:1" },
								],
							},
						],
					},
				}),
				".claude/settings.local.json": JSON.stringify({
					hooks: { Stop: [{ hooks: [{ type: "command", command: "./stop.sh", timeout: 5 }] }] },
				}),
				".codex/hooks.json": JSON.stringify({
					hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "./c.sh" }] }] },
				}),
				".gemini/settings.json": JSON.stringify({
					theme: "dark",
					hooks: {
						enabled: true,
						disabled: ["off"],
						BeforeTool: [
							{
								matcher: "write_file",
								hooks: [
									{ type: "command", name: "g", command: "./g.sh" },
									{ type: "command", name: "off", command: "./off.sh" },
								],
							},
						],
					},
				}),
				".cursor/hooks.json": JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: "./cu.sh", matcher: "git" }] } }),
			},
			{
				".claude/settings.json": JSON.stringify({
					hooks: {
						Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
						UserPromptSubmit: [{ hooks: [{ type: "command", command: "date" }] }],
					},
				}),
				".codex/hooks.json": JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo hi" }] }] } }),
				".gemini/settings.json": JSON.stringify({ hooks: { AfterAgent: [{ hooks: [{ type: "command", command: "echo done" }] }] } }),
				".cursor/hooks.json": JSON.stringify({ version: 1, hooks: { stop: [{ command: "echo bye" }] } }),
			},
		);
		const { rows, warnings, items } = await discover(dir, home);
		expect(warnings).toEqual([]);
		expect(rows).toEqual([
			["claude-settings", "project", "Stop", null, "./stop.sh"],
			["claude-settings", "project", "PreToolUse", "Bash", "./a.sh"],
			["claude-settings", "user", "UserPromptSubmit", null, "date"],
			["codex-hooks", "project", "PostToolUse", "*", "./c.sh"],
			["codex-hooks", "user", "SessionStart", null, "echo hi"],
			["gemini-settings", "project", "BeforeTool", "write_file", "./g.sh"],
			["gemini-settings", "user", "AfterAgent", null, "echo done"],
			["cursor-hooks", "project", "beforeShellExecution", "git", "./cu.sh"],
			["cursor-hooks", "user", "stop", null, "echo bye"],
		]);
		expect(items[0]?.path).toBe(`${join(dir, ".claude", "settings.local.json")}#hooks.Stop[0].hooks[0]`);
		expect(items[0]?.entry?.timeoutMs).toBe(5000);
		expect(items.find((h) => h.entry?.agent === "gemini")?.entry?.timeoutMs).toBeUndefined();
	});

	test("the same entry in two files is one hook (the other is shadowed); our own bridge entries are skipped", async () => {
		const same = {
			hooks: {
				PreToolUse: [
					{
						matcher: "Bash",
						hooks: [
							{ type: "command", command: "guard.sh" },
							{ type: "command", command: "/opt/bin/xcsh-hooks bridge claude", onFailure: "block" },
						],
					},
				],
			},
		};
		const { dir, home } = setup({ ".claude/settings.json": JSON.stringify(same) }, { ".claude/settings.json": JSON.stringify(same) });
		const result = await discover(dir, home);
		expect(result.rows).toEqual([["claude-settings", "project", "PreToolUse", "Bash", "guard.sh"]]);
		expect(result.all.filter((h) => h._shadowed).map((h) => h.level)).toEqual(["user"]);
		expect(hookKey(result.items[0] as Hook)).toBe("agent:claude:PreToolUse:Bash:guard.sh");
	});

	test("malformed files and keys are warnings naming the file and the key, never a crash; the rest of the file still counts", async () => {
		const { dir, home } = setup({
			".claude/settings.json": "{ not json",
			".codex/hooks.json": JSON.stringify({ hooks: [] }),
			".gemini/settings.json": JSON.stringify({
				hooks: {
					BeforeTool: { matcher: "x" },
					AfterTool: [
						7,
						{ matcher: 3, hooks: [] },
						{ hooks: "no" },
						{ hooks: [{ type: "command" }, { type: "command", command: "ok.sh", timeout: "soon" }] },
					],
				},
			}),
			".cursor/hooks.json": JSON.stringify({ version: 1, hooks: { preToolUse: [{ command: "" }, { command: "fine.sh", matcher: "(" }] } }),
		});
		const { rows, warnings } = await discover(dir, home);
		const file = (rel: string) => join(dir, rel);
		expect(warnings).toEqual([
			expect.stringContaining(`${file(".claude/settings.json")}: invalid JSON`),
			`[Codex hooks.json] ${file(".codex/hooks.json")}: hooks must be an object of event lists, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.BeforeTool must be an array, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.AfterTool[0] must be an object with a hooks array, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.AfterTool[1].matcher must be a string, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.AfterTool[2].hooks must be an array, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.AfterTool[3].hooks[0].command must be a non-empty string, ignored`,
			`[Gemini CLI settings] ${file(".gemini/settings.json")}: hooks.AfterTool[3].hooks[1].timeout must be a positive number (the agent's default applies), ignored`,
			`[Cursor hooks.json] ${file(".cursor/hooks.json")}: hooks.preToolUse[0].command must be a non-empty string, ignored`,
			expect.stringContaining(`${file(".cursor/hooks.json")}: hooks.preToolUse[1].matcher is not a valid regular expression`),
		]);
		expect(rows).toEqual([
			["gemini-settings", "project", "AfterTool", null, "ok.sh"],
			["cursor-hooks", "project", "preToolUse", "(", "fine.sh"],
		]);
	});

	test("disableAllHooks (Claude) and hooks.enabled: false (Gemini) turn a file's hooks off", async () => {
		const { dir, home } = setup({
			".claude/settings.json": JSON.stringify({ disableAllHooks: true, hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] } }),
			".gemini/settings.json": JSON.stringify({ hooks: { enabled: false, AfterAgent: [{ hooks: [{ type: "command", command: "y" }] }] } }),
		});
		expect((await discover(dir, home)).rows).toEqual([]);
	});
});

describe("matchers, as each agent reads them", () => {
	test("Claude: exact names and | lists, otherwise an unanchored regex; * and empty match all; a bad regex matches nothing", () => {
		expect(matches("Bash", "Bash", "claude")).toBe(true);
		expect(matches("Edit|Write", "Write", "claude")).toBe(true);
		expect(matches("Edit, Write", "Edit", "claude")).toBe(true);
		expect(matches("Edit", "NotebookEdit", "claude")).toBe(false);
		expect(matches("Edit.*", "NotebookEdit", "claude")).toBe(true);
		expect(matches("mcp__memory__.*", "mcp__memory__save", "claude")).toBe(true);
		expect(matches("*", "Anything", "claude")).toBe(true);
		expect(matches("", "Anything", "claude")).toBe(true);
		expect(matches(undefined, "Anything", "claude")).toBe(true);
		expect(matches("(", "(", "claude")).toBe(false);
	});

	test("Codex: regex (a bad one matches nothing); Gemini and Cursor: regex, a bad one compared exactly", () => {
		expect(matches("^Bash$", "Bash", "codex")).toBe(true);
		expect(matches("Bash", "NotBash", "codex")).toBe(true);
		expect(matches("(", "(", "codex")).toBe(false);
		expect(matches("write_.*", "write_file", "regex-or-exact")).toBe(true);
		expect(matches("(", "(", "regex-or-exact")).toBe(true);
		expect(matches("read_file", "write_file", "regex-or-exact")).toBe(false);
	});
});
