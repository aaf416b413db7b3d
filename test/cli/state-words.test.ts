/**
 * One word per state: a project hook never approved is "not approved" in every human output (`list`,
 * `trust`, `check`, the skip warning of `emit` and `bridge`) and `not-approved` in every JSON one
 * (`list --json`, `trust --json`, `check --json`, `serve`'s ready notice) — never the library's
 * `unknown`, never "awaiting approval".
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const HOOK = 'export default (pi) => { pi.on("tool_call", () => undefined); };\n';
const CLAUDE_CALL = JSON.stringify({
	hook_event_name: "PreToolUse",
	session_id: "s1",
	tool_name: "Bash",
	tool_input: { command: "ls" },
});

/** Words an output must not use for the never-approved state. */
const OTHER_WORDS = /\bunknown\b|awaiting/i;

for (const cli of useClis()) {
	describe(cli.name, () => {
		test("a never-approved project hook has one word in list, trust, check, emit, bridge and serve", async () => {
			const root = tempDir("xcsh-state-words-");
			const home = join(root, "home");
			const cwd = join(root, "project");
			mkdirSync(home);
			mkdirSync(join(cwd, ".xcsh", "hooks"), { recursive: true });
			const hook = join(cwd, ".xcsh", "hooks", "g.ts");
			writeFileSync(hook, HOOK);
			const run = (args: string[], stdin?: string) => runCli(cli, args, { cwd, home, timeoutMs: 60_000, ...(stdin ? { stdin } : {}) });

			const human = {
				list: await run(["list"]),
				trust: await run(["trust"]),
				check: await run(["check"]),
				emit: await run(["emit", "tool_call", "--data", '{"toolName":"bash","input":{"command":"ls"}}']),
				bridge: await run(["bridge", "claude"], CLAUDE_CALL),
			};
			for (const [name, shown] of Object.entries(human)) {
				const text = shown.stdout + shown.stderr;
				expect({ name, says: text.includes("not approved") }).toEqual({ name, says: true });
				expect({ name, other: OTHER_WORDS.exec(text)?.[0] ?? null }).toEqual({ name, other: null });
			}
			expect(human.list.stdout).toMatch(/not approved +project +\.xcsh\/hooks\/g\.ts/);
			expect(human.trust.stdout).toMatch(/✗ +not approved +\.xcsh\/hooks\/g\.ts/);
			expect(human.check.stdout).toContain("0 hooks loaded, 0 failed, 1 not approved");

			const list = JSON.parse((await run(["list", "--json"])).stdout);
			expect(list.hooks).toEqual([expect.objectContaining({ path: hook, status: "not-approved" })]);
			expect(list.skipped).toEqual([expect.objectContaining({ path: hook, reason: "not-approved" })]);
			const trust = JSON.parse((await run(["trust", "--json"])).stdout);
			expect(trust.hooks).toEqual([{ path: hook, status: "not-approved" }]);
			const check = await run(["check", "--json"]);
			expect(check.code).toBe(1);
			expect(JSON.parse(check.stdout)).toMatchObject({ ok: false, skipped: [{ path: hook, reason: "not-approved" }] });
			// serve answers nothing here (stdin ends at once); its ready notice says the same word.
			const served = await run(["serve", "--no-watch"], "");
			const ready = JSON.parse(served.stdout.split("\n")[0] ?? "");
			expect(ready).toMatchObject({ method: "ready", params: { skipped: [{ path: hook, reason: "not-approved" }] } });
			expect(served.stderr).toContain("not approved");
		}, 90_000);
	});
}
