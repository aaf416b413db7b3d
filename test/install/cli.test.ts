import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { tempDir } from "../_helpers.ts";
import { CLI, expectCleanError, runCli } from "../cli/_run.ts";

describe("xcsh-hooks install / uninstall", () => {
	test("installs into the project by default naming xcsh-hooks on PATH (the config is committed); a second run says nothing changed", async () => {
		const cwd = tempDir();
		const home = tempDir();
		const run = await runCli(["install", "claude"], { cwd, home });
		expect(run.code).toBe(0);
		const file = join(cwd, ".claude/settings.json");
		expect(run.stdout).toContain(`wrote ${file}`);
		expect(run.stdout).toContain("+ add PreToolUse (matcher *)");
		const settings = JSON.parse(readFileSync(file, "utf8"));
		const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
		expect(command).toBe(entryCommand("xcsh-hooks bridge claude --installed-by=xcsh-hooks", true));
		expect(command).not.toContain(CLI);
		expect(existsSync(join(home, ".claude"))).toBe(false);

		const again = await runCli(["install", "claude"], { cwd, home });
		expect(again.code).toBe(0);
		expect(again.stdout).toContain("already has the xcsh-hooks entries; nothing changed");
	}, 60_000);

	test("--user writes under HOME; --command replaces the program; uninstall removes it again", async () => {
		const cwd = tempDir();
		const home = tempDir();
		const run = await runCli(["install", "codex", "--user", "--command", "xcsh-hooks"], { cwd, home });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("note: Codex runs non-managed hooks only once they are trusted");
		const file = join(home, ".codex/hooks.json");
		expect(JSON.parse(readFileSync(file, "utf8")).hooks.Stop[0].hooks[0].command).toBe(
			entryCommand("xcsh-hooks bridge codex --installed-by=xcsh-hooks", false),
		);
		const json = await runCli(["uninstall", "codex", "--user", "--json"], { cwd, home });
		expect(json.code).toBe(0);
		const result = JSON.parse(json.stdout);
		expect(result).toMatchObject({ agent: "codex", scope: "user", file, removeFile: true, written: true });
		expect(result.changes).toHaveLength(10);
		expect(existsSync(file)).toBe(false);
	}, 60_000);

	test("--dry-run prints exactly the text a real install writes, and writes nothing", async () => {
		const cwd = tempDir();
		const file = join(cwd, ".gemini/settings.json");
		mkdirSync(join(cwd, ".gemini"));
		writeFileSync(file, '{\n\t"general": {"vimMode": true}\n}\n');
		const dry = await runCli(["install", "gemini", "--dry-run"], { cwd });
		expect(dry.code).toBe(0);
		expect(dry.stderr).toContain(`would write ${file}`);
		expect(readFileSync(file, "utf8")).toBe('{\n\t"general": {"vimMode": true}\n}\n');
		expect((await runCli(["install", "gemini"], { cwd })).code).toBe(0);
		expect(readFileSync(file, "utf8")).toBe(dry.stdout);
		const dryUninstall = await runCli(["uninstall", "gemini", "--dry-run"], { cwd });
		expect(dryUninstall.stdout).toBe('{\n\t"general": {"vimMode": true}\n}\n');
		expect(readFileSync(file, "utf8")).toBe(dry.stdout);
	}, 60_000);

	test("bad input: an unparseable file (untouched), both scopes, an unknown agent, a FIFO", async () => {
		const cwd = tempDir();
		mkdirSync(join(cwd, ".cursor"));
		const file = join(cwd, ".cursor/hooks.json");
		writeFileSync(file, '{"version": 1,');
		expectCleanError(await runCli(["install", "cursor"], { cwd }), 1, file, "not valid JSON");
		expect(readFileSync(file, "utf8")).toBe('{"version": 1,');
		expectCleanError(await runCli(["uninstall", "cursor"], { cwd }), 1, file);
		expectCleanError(await runCli(["install", "claude", "--project", "--user"], { cwd }), 1, "--project and --user are mutually exclusive");
		expectCleanError(await runCli(["install", "vim"], { cwd }), 1, 'unknown agent "vim"', "claude, codex, gemini, cursor, copilot");
		expectCleanError(await runCli(["install"], { cwd }), 1, "missing AGENT");
		mkdirSync(join(cwd, ".github/hooks"), { recursive: true });
		Bun.spawnSync(["mkfifo", join(cwd, ".github/hooks/xcsh-hooks.json")], { env: process.env });
		expectCleanError(await runCli(["install", "copilot"], { cwd }), 1, "not a regular file (a FIFO)");
	}, 60_000);

	test("a user install says so when the agent's home variable points elsewhere", async () => {
		const home = tempDir();
		const codexHome = tempDir();
		const run = await runCli(["install", "codex", "--user"], { home, env: { CODEX_HOME: codexHome } });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain(`CODEX_HOME is set: the agent reads ${join(codexHome, "hooks.json")}`);
		expect(existsSync(join(codexHome, "hooks.json"))).toBe(false);
	}, 60_000);

	test("--cwd picks the project; an uninstall with nothing to remove says so", async () => {
		const project = tempDir();
		const run = await runCli(["--cwd", project, "install", "cursor"], { cwd: tempDir() });
		expect(run.code).toBe(0);
		expect(existsSync(join(project, ".cursor/hooks.json"))).toBe(true);
		const none = await runCli(["uninstall", "claude", "--cwd", project]);
		expect(none.code).toBe(0);
		expect(none.stdout).toContain("has no xcsh-hooks entries; nothing changed");
	}, 60_000);
});
