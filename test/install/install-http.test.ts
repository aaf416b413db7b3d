import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { join } from "node:path";
import { isInstallError, installBridge, uninstallBridge } from "../../src/install/index.ts";
import { tempDir } from "../_helpers.ts";

const URL = "http://127.0.0.1:8377/";
const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** A project whose Claude settings already hold the user's own hook and keys. */
function project(): { dir: string; file: string } {
	const dir = tempDir("xcsh-install-http-");
	const file = join(dir, ".claude", "settings.json");
	mkdirSync(join(dir, ".claude"));
	const own = {
		permissions: { allow: ["Bash(ls)"] },
		hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }] },
	};
	writeFileSync(file, `${JSON.stringify(own, null, "\t")}\n`);
	return { dir, file };
}

describe("install claude --http", () => {
	test("writes one http entry per event, with the token header, allowedEnvVars and onFailure on guard events", async () => {
		const p = project();
		const result = await installBridge("claude", { cwd: p.dir, http: URL });
		expect(result.written).toBe(true);
		const config = read(p.file);
		expect(config.permissions).toEqual({ allow: ["Bash(ls)"] });
		expect(config.hooks.PreToolUse[0]).toEqual({ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] });
		expect(config.hooks.PreToolUse[1]).toEqual({
			matcher: "*",
			hooks: [
				{
					type: "http",
					url: URL,
					headers: { Authorization: "Bearer $XCSH_HOOKS_TOKEN" },
					allowedEnvVars: ["XCSH_HOOKS_TOKEN"],
					timeout: 60,
					onFailure: "block",
				},
			],
		});
		expect(config.hooks.UserPromptSubmit[0].hooks[0].onFailure).toBe("block");
		expect(config.hooks.PostToolUse[0].hooks[0]).not.toHaveProperty("onFailure");
		expect(config.hooks.PermissionRequest[0].hooks[0].onFailure).toBe("block");
		expect(Object.keys(config.hooks).sort()).toEqual([
			"PermissionRequest",
			"PostToolUse",
			"PreCompact",
			"PreToolUse",
			"SessionEnd",
			"SessionStart",
			"Stop",
			"SubagentStart",
			"SubagentStop",
			"UserPromptSubmit",
		]);
		expect(result.notes.join("\n")).toContain("XCSH_HOOKS_TOKEN");
		expect(result.notes.join("\n")).toContain("serve --http 127.0.0.1:8377");
	}, 60_000);

	test("idempotent; switching between command and http entries replaces ours in place; uninstall removes either", async () => {
		const p = project();
		await installBridge("claude", { cwd: p.dir, http: URL });
		expect((await installBridge("claude", { cwd: p.dir, http: URL })).changes).toEqual([]);
		const toCommand = await installBridge("claude", { cwd: p.dir, command: "/opt/xcsh-hooks" });
		expect(toCommand.changes.every((c) => c.action === "update")).toBe(true);
		let config = read(p.file);
		expect(config.hooks.PreToolUse).toHaveLength(2);
		expect(config.hooks.PreToolUse[1].hooks).toEqual([
			{
				type: "command",
				command: entryCommand("/opt/xcsh-hooks bridge claude --installed-by=xcsh-hooks", true),
				timeout: 60,
				onFailure: "block",
			},
		]);
		await installBridge("claude", { cwd: p.dir, http: "http://127.0.0.1:9000/claude" });
		config = read(p.file);
		expect(config.hooks.PreToolUse[1].hooks[0].url).toBe("http://127.0.0.1:9000/claude");
		const removed = await uninstallBridge("claude", { cwd: p.dir });
		expect(removed.changes).toHaveLength(10);
		expect(read(p.file).hooks).toEqual({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }] });
	}, 60_000);

	test("refuses another agent and a URL that is not http(s), changing nothing", async () => {
		const p = project();
		const before = readFileSync(p.file, "utf8");
		await expect(installBridge("codex", { cwd: p.dir, http: URL })).rejects.toThrow("has no http hooks");
		expect(isInstallError(await installBridge("claude", { cwd: p.dir, http: "ftp://127.0.0.1/" }).catch((e) => e))).toBe(true);
		await expect(installBridge("claude", { cwd: p.dir, http: "not a url" })).rejects.toThrow("expected the URL");
		expect(readFileSync(p.file, "utf8")).toBe(before);
	}, 60_000);

	test("the CLI flag: --http writes the entries, --http with --command is refused", () => {
		const p = project();
		const ok = Bun.spawnSync(["bun", CLI, "install", "claude", "--cwd", p.dir, "--http", URL], { env: process.env });
		expect(ok.exitCode).toBe(0);
		expect(ok.stdout.toString()).toContain(`url: ${URL}`);
		expect(read(p.file).hooks.Stop[0].hooks[0].type).toBe("http");
		const both = Bun.spawnSync(["bun", CLI, "install", "claude", "--cwd", p.dir, "--http", URL, "--command", "x"], { env: process.env });
		expect(both.exitCode).toBe(1);
		expect(both.stderr.toString()).toContain("mutually exclusive");
	}, 60_000);
});
