/**
 * The CLI's small promises from trying it as a new user: a mistyped option or `guard` action gets the
 * nearest name, `emit tool_result` needs no `details`, `check` shows `~/…` as `list` does, `uninstall`
 * says what it removed and takes away the empty folders install made for OpenCode, pi and Cline (never
 * one that was there before, never one holding something else).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";
import { runCli } from "./_run.ts";

const HOOK = `export default (pi) => { pi.on("tool_call", () => undefined); };\n`;

describe("did-you-mean for options and guard actions", () => {
	test("an unknown option names the nearest option of that command", async () => {
		const home = tempDir();
		for (const [args, message] of [
			[["list", "--jsn"], 'unknown option --jsn (did you mean "--json"?)'],
			[["emit", "tool_call", "--dat", "{}"], 'unknown option --dat (did you mean "--data"?)'],
			[["install", "claude", "--dryrun"], 'unknown option --dryrun (did you mean "--dry-run"?)'],
			[["log", "--folow"], 'unknown option --folow (did you mean "--follow"?)'],
		] as const) {
			const run = await runCli([...args], { home, cwd: home });
			expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 1, stderr: expect.stringContaining(message) });
		}
	}, 90_000);

	test("a mistyped guard action gets the nearest one, with or without the command line after it", async () => {
		const home = tempDir();
		for (const args of [
			["guard", "explian", "rm -rf /"],
			["guard", "explian"],
			["guard", "--json", "explai"],
		]) {
			const run = await runCli(args, { home, cwd: home });
			expect({ args, code: run.code, stderr: run.stderr }).toEqual({
				args,
				code: 1,
				stderr: expect.stringContaining('(did you mean "explain"?)'),
			});
		}
	}, 60_000);
});

test("emit tool_result takes an event without details, as agents send it", async () => {
	const home = tempDir();
	const event = { toolName: "bash", input: { command: "ls" }, content: [{ type: "text", text: "a\n" }], isError: false };
	const run = await runCli(["emit", "tool_result", "--no-discovery", "--data", JSON.stringify(event)], { home, cwd: home });
	expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
	expect(JSON.parse(run.stdout).event).toMatchObject({ type: "tool_result", toolName: "bash" });
}, 60_000);

test("check shows a user hook as ~/… , as list does", async () => {
	const home = tempDir();
	mkdirSync(join(home, ".xcsh/agent/hooks"), { recursive: true });
	writeFileSync(join(home, ".xcsh/agent/hooks/mine.ts"), HOOK);
	const cwd = tempDir();
	const check = await runCli(["check"], { home, cwd });
	expect(check.code).toBe(0);
	expect(check.stdout).toContain("✓ ~/.xcsh/agent/hooks/mine.ts");
	expect(check.stdout).not.toContain(home);
	expect((await runCli(["list"], { home, cwd })).stdout).toContain("~/.xcsh/agent/hooks/mine.ts");
}, 60_000);

describe("uninstall", () => {
	const AGENTS = [
		["opencode", ".opencode"],
		["pi", ".pi"],
		["cline", ".clinerules"],
	] as const;

	test("says what it removed, and removes the empty folders install created for OpenCode, pi and Cline", async () => {
		const home = tempDir();
		const cwd = tempDir();
		for (const [agent, top] of AGENTS) {
			expect((await runCli(["install", agent], { home, cwd })).code).toBe(0);
			expect(existsSync(join(cwd, top))).toBe(true);
			const run = await runCli(["uninstall", agent], { home, cwd });
			expect({ agent, code: run.code }).toEqual({ agent, code: 0 });
			expect(run.stdout).not.toContain("wrote");
			expect(run.stdout).toContain("removed");
			expect(run.stdout).toContain(`removed the empty folder ${join(cwd, top)}`);
		}
		expect(readdirSync(cwd)).toEqual([]);
	}, 120_000);

	test("keeps a folder that was there before install, and one that holds a file of the user's", async () => {
		const home = tempDir();
		const cwd = tempDir();
		mkdirSync(join(cwd, ".pi")); // the user's own, before install
		for (const agent of ["pi", "opencode"]) expect((await runCli(["install", agent], { home, cwd })).code).toBe(0);
		writeFileSync(join(cwd, ".opencode/plugin/mine.ts"), "export const mine = 1;\n"); // saved after install
		for (const agent of ["pi", "opencode"]) expect((await runCli(["uninstall", agent], { home, cwd })).code).toBe(0);
		expect(existsSync(join(cwd, ".pi"))).toBe(true);
		expect(existsSync(join(cwd, ".pi/extensions"))).toBe(false); // install made this one
		expect(readdirSync(join(cwd, ".opencode/plugin"))).toEqual(["mine.ts"]);
	}, 120_000);
});

test("install.sh --help prints its usage and nothing of the script", async () => {
	const script = join(import.meta.dir, "..", "..", "scripts", "install.sh");
	const proc = Bun.spawn(["sh", script, "--help"], {
		stdout: "pipe",
		stderr: "pipe",
		env: { PATH: process.env.PATH ?? "", HOME: tempDir() },
	});
	const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
	expect(code).toBe(0);
	expect(stdout).toStartWith("Installs the xcsh-hooks executable");
	expect(stdout.trimEnd().split("\n").at(-1)).toBe("Nothing is installed unless the checksum matches.");
}, 30_000);
