/**
 * Entries written before every entry ran through the cleaning shell (src/agents/_shared/entry-shell.ts)
 * are upgraded in place by the next `install` (nothing else in the file changes), and `uninstall`
 * removes the old form and the new one alike: the plain `<program> bridge <agent> --installed-by=…`,
 * the managed `/usr/bin/env -u BUN_BE_BUN -u BUN_OPTIONS -u NODE_PATH <program> …`, and Cline's old
 * `exec <program> … --event <Event>` files.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { scriptMarker } from "../../src/agents/_shared/install-spec.ts";
import { agentSpec, installBridge, isBridgeCommand, uninstallBridge } from "../../src/install/index.ts";
import { addTomlEntries, removeTomlEntries } from "../../src/install/managed-toml.ts";
import { tempDir } from "../_helpers.ts";

const CMD = "/opt/xcsh/xcsh-hooks";
const OLD = `${CMD} bridge claude --installed-by=xcsh-hooks`;
const OLD_MANAGED = `/usr/bin/env -u BUN_BE_BUN -u BUN_OPTIONS -u NODE_PATH ${OLD}`;

/** A user's settings holding their own hook and our entries in an old form (as an earlier install left them). */
function oldSettings(command: string): string {
	return `{
  "model":   "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./mine.sh" }] },
      { "matcher": "*", "hooks": [{ "type": "command", "command": ${JSON.stringify(command)}, "timeout": 60, "onFailure": "block" }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": ${JSON.stringify(command)}, "timeout": 60 }] }]
  }
}
`;
}

function write(dir: string, text: string): string {
	const file = join(dir, ".claude", "settings.json");
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, text);
	return file;
}

describe("entries of an earlier install", () => {
	for (const [form, command] of [
		["plain", OLD],
		["managed /usr/bin/env -u", OLD_MANAGED],
	] as const)
		test(`${form}: install upgrades them in place to the cleaning shell; uninstall of either form leaves the same text`, async () => {
			const before = oldSettings(command);
			const old = write(tempDir(), before);
			const dir = tempDir();
			const file = write(dir, before);
			expect(isBridgeCommand(command, "claude")).toBe(true);

			const result = await installBridge("claude", { cwd: dir, command: CMD });
			const updated = result.changes.filter((c) => c.action === "update").map((c) => c.event);
			expect(updated).toEqual(["PreToolUse", "Stop"]);
			const text = readFileSync(file, "utf8");
			expect(text.startsWith('{\n  "model":   "opus",')).toBe(true);
			expect(text).toContain('{ "matcher": "Bash", "hooks": [{ "type": "command", "command": "./mine.sh" }] },');
			const json = JSON.parse(text) as any;
			expect(json.hooks.PreToolUse[1].hooks[0].command).toBe(entryCommand(OLD, true));
			expect(json.hooks.Stop[0].hooks[0].command).toBe(entryCommand(OLD, false));
			expect((await installBridge("claude", { cwd: dir, command: CMD })).changes).toEqual([]);

			await uninstallBridge("claude", { cwd: dir });
			await uninstallBridge("claude", { cwd: dirname(dirname(old)) });
			expect(readFileSync(file, "utf8")).toBe(readFileSync(old, "utf8"));
			expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
				model: "opus",
				hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./mine.sh" }] }] },
			});
		});

	test("managed TOML (Codex requirements.toml): the old /usr/bin/env block is replaced by the new one, and removed by uninstall", () => {
		const spec = agentSpec("codex");
		const admin = `allowed_approval_policies = ["never"]\n`;
		const oldCommand = `/usr/bin/env -u BUN_BE_BUN -u BUN_OPTIONS -u NODE_PATH ${CMD} bridge codex --installed-by=xcsh-hooks`;
		const fresh = addTomlEntries(admin, spec, `${CMD} bridge codex --installed-by=xcsh-hooks`, "requirements.toml", undefined).text;
		// The block as the earlier version wrote it: the same tables, the old command in each.
		const bare = (text: string) => text.replace(/command = "[^\n]*"/g, `command = ${JSON.stringify(oldCommand)}`);
		const old = bare(fresh);
		expect(old).not.toBe(fresh);
		const upgraded = addTomlEntries(old, spec, `${CMD} bridge codex --installed-by=xcsh-hooks`, "requirements.toml", undefined);
		expect(upgraded.changes.every((c) => c.action === "update")).toBe(true);
		expect(upgraded.text).toBe(fresh);
		expect(removeTomlEntries(old, spec).text).toBe(admin);
		const parsed = Bun.TOML.parse(fresh) as any;
		expect(parsed.hooks.PreToolUse[0].hooks[0].command).toBe(entryCommand(`${CMD} bridge codex --installed-by=xcsh-hooks`, true));
	});

	test("Cline: an old `exec … --event` file is rewritten in place; uninstall removes old files too", async () => {
		const dir = tempDir();
		const hooks = join(dir, ".clinerules", "hooks");
		mkdirSync(hooks, { recursive: true });
		const oldFile = (event: string) =>
			`#!/bin/sh\n${scriptMarker("cline")}\nexec ${CMD} bridge cline --installed-by=xcsh-hooks --event ${event}\n`;
		writeFileSync(join(hooks, "PreToolUse"), oldFile("PreToolUse"), { mode: 0o755 });
		writeFileSync(join(hooks, "TaskError"), oldFile("TaskError"), { mode: 0o755 });
		const result = await installBridge("cline", { cwd: dir, command: CMD });
		expect(result.changes.find((c) => c.event === "PreToolUse")?.action).toBe("update");
		const text = readFileSync(join(hooks, "PreToolUse"), "utf8");
		expect(text).toContain("BUN_*=*|MIMALLOC_*=*|NODE_PATH=*");
		expect(text).toContain('"cancel":true');
		await uninstallBridge("cline", { cwd: dir });
		expect(existsSync(join(hooks, "PreToolUse"))).toBe(false);
		expect(existsSync(join(hooks, "TaskError"))).toBe(false);
	});
});
