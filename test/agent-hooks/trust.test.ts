/** Trust for project-level agent entries: what an approval covers, and planHooks' verdicts through the library. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalContent, commandWords, namedScripts } from "../../src/discovery/agent-config/approval.ts";
import { readAgentConfig } from "../../src/discovery/agent-config/read-config.ts";
import { TrustStore } from "../../src/trust/trust-store.ts";
import { BLOCK_RM_EXIT2, claudeSettings, library, rejection, setup } from "./_fixtures.ts";

function entriesOf(dir: string) {
	return readAgentConfig({ agent: "claude", layout: "grouped", file: join(dir, ".claude", "settings.json"), projectDir: dir }).entries;
}

describe("what an approval covers", () => {
	test("command words: quotes removed, split on blanks and shell operators", () => {
		expect(commandWords(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh --x 'two words' && bun b.ts|c`)).toEqual([
			"$CLAUDE_PROJECT_DIR/.claude/hooks/a.sh",
			"--x",
			"two words",
			"bun",
			"b.ts",
			"c",
		]);
	}, 60_000);

	test("the scripts inside the project a command names, however it names them; nothing outside the project", () => {
		const { dir } = setup({
			".claude/hooks/a.sh": "a",
			"tools/b.ts": "b",
			".claude/settings.json": claudeSettings({
				PreToolUse: [
					{ command: `"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh && bun tools/b.ts /etc/passwd ./missing.sh` },
					{ command: "${CLAUDE_PROJECT_DIR}/.claude/hooks/a.sh" },
				],
			}),
		});
		const [first, second] = entriesOf(dir);
		expect(namedScripts(first as never)).toEqual([join(dir, ".claude/hooks/a.sh"), join(dir, "tools/b.ts")]);
		expect(namedScripts(second as never)).toEqual([join(dir, ".claude/hooks/a.sh")]);
	}, 60_000);

	test("the content changes with the entry (command, matcher, timeout) and with the script's bytes", () => {
		const { dir } = setup({
			".claude/hooks/a.sh": "one",
			".claude/settings.json": claudeSettings({ PreToolUse: [{ matcher: "Bash", command: ".claude/hooks/a.sh" }] }),
		});
		const hash = () => Bun.hash(approvalContent(entriesOf(dir)[0] as never)).toString();
		const original = hash();
		writeFileSync(join(dir, ".claude/hooks/a.sh"), "two");
		expect(hash()).not.toBe(original);
		writeFileSync(join(dir, ".claude/hooks/a.sh"), "one");
		expect(hash()).toBe(original);
		for (const changed of [
			{ matcher: "Bash", command: ".claude/hooks/a.sh", timeout: 9 },
			{ matcher: "Bash|Read", command: ".claude/hooks/a.sh" },
		]) {
			writeFileSync(join(dir, ".claude/settings.json"), claudeSettings({ PreToolUse: [changed] }));
			expect(hash()).not.toBe(original);
		}
	}, 60_000);
});

describe("planHooks verdicts for agent entries (library, with a trust store)", () => {
	test("never approved: skipped with the settings file's approve command; approved: runs; script edited: fails closed", async () => {
		const { dir, home } = setup({
			".claude/settings.json": claudeSettings({ PreToolUse: [{ matcher: "Bash", command: ".claude/hooks/guard.sh" }] }),
			".claude/hooks/guard.sh": BLOCK_RM_EXIT2,
		});
		const store = new TrustStore(join(home, "trust.json"));
		const path = `${join(dir, ".claude", "settings.json")}#hooks.PreToolUse[0].hooks[0]`;
		const fresh = await library(dir, home, { trust: store });
		expect(fresh.loaded.hooks).toEqual([]);
		expect(fresh.loaded.skipped).toEqual([
			expect.objectContaining({ path, reason: "unknown", approve: `xcsh-hooks trust approve ${join(dir, ".claude", "settings.json")}` }),
		]);

		await store.approve(path, approvalContent(entriesOf(dir)[0] as never));
		const approved = await library(dir, home, { trust: new TrustStore(store.file) });
		expect(approved.loaded.hooks.map((h) => h.path)).toEqual([path]);
		expect(await rejection(approved.run("rm -rf x"))).toBe("Blocked: rm -rf commands are not allowed");

		// Edited while a host holds the approved entry: the next call fails closed instead of running the new script.
		writeFileSync(join(dir, ".claude/hooks/guard.sh"), "#!/bin/sh\nexit 0\n");
		expect(await rejection(approved.run("echo hi"))).toContain("changed since it was approved, so it fails closed");
		const later = await library(dir, home, { trust: new TrustStore(store.file) });
		expect(later.loaded.errors).toEqual([{ path, error: expect.stringContaining("changed since it was approved") }]);
	}, 60_000);
});
