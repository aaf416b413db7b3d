/**
 * `xcsh-hooks guard explain` judges with the project's own guard, as `emit tool_call` does, through
 * both CLIs (the compiled executable and `bun src/cli.ts`); an unapproved guard is never imported.
 * The command lines are data: nothing here runs them.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { bashCall, marker, privateHome, tempDir, touch, writeFiles } from "../faults/_fixtures.ts";
import { type Cli, runCli, useClis } from "../faults/_cli.ts";

/** A guard whose packs differ from the defaults: databases only, and a rule of its own that asks. */
const projectGuard = (mark: string) => `import { createShellGuard } from "xcsh-hooks/guards";
${touch(mark)}
const guard = createShellGuard({
	packs: ["databases"],
	rules: [{ id: "team/deploy", reason: "deploys need a yes", programs: ["make"], verdict: "ask", test: (c) => c.args[0] === "deploy" }],
});
export default (pi) => pi.on("tool_call", guard.handler);
`;

/** Blocked by the project's guard only; allowed by it only; asked about by it. */
const DROP = "psql -c 'DROP TABLE users'";
const RESET = "git reset --hard";
const DEPLOY = "cd web && make deploy";

for (const cli of useClis()) {
	describe(cli.name, () => {
		const explain = (c: Cli, command: string, cwd: string, home: string, ...more: string[]) =>
			runCli(c, ["guard", "explain", command, ...more], { cwd, home, timeoutMs: 60_000 });
		const emit = (c: Cli, command: string, cwd: string, home: string) =>
			runCli(c, ["emit", "tool_call", "--data", bashCall(command)], { cwd, home, timeoutMs: 60_000 });

		test("with an approved project guard: its verdicts, the same as emit's, and it says which guard", async () => {
			const home = privateHome();
			const dir = tempDir("xcsh-explain-");
			const ran = marker(dir);
			writeFiles(dir, { ".xcsh/hooks/guard.ts": projectGuard(ran.path) });
			expect((await runCli(cli, ["trust", "approve", join(dir, ".xcsh/hooks/guard.ts")], { cwd: dir, home })).code).toBe(0);

			for (const [command, verdict, rule] of [
				[DROP, "block", "databases/"],
				[RESET, "allow", undefined],
				[DEPLOY, "ask", "team/deploy"],
			] as const) {
				const json = await explain(cli, command, dir, home, "--json");
				const explained = JSON.parse(json.stdout);
				expect(explained).toMatchObject({ verdict, source: { kind: "project", hooks: [join(dir, ".xcsh/hooks/guard.ts")] } });
				expect(explained.guard).toMatchObject({ packs: ["databases"], rules: ["team/deploy"] });
				if (rule) expect(explained.rule).toStartWith(rule);
				// What the hooks answered is what emit answers: blocked, asked (`{ask: true}`) or allowed.
				const emitted = await emit(cli, command, dir, home);
				const result = JSON.parse(emitted.stdout).result;
				expect(Boolean(result?.block)).toBe(verdict === "block");
				expect(Boolean(result?.ask)).toBe(verdict === "ask");
				expect(explained.source.answer.verdict).toBe(verdict);
				if (result?.block || result?.ask) expect(explained.source.answer.reason).toBe(result.reason);
				expect(json.code).toBe(emitted.code);
			}

			const text = await explain(cli, DEPLOY, dir, home);
			expect(text.code).toBe(2);
			expect(text.stdout).toContain("judged by the guard of the project's hooks (./.xcsh/hooks/guard.ts)");
			expect(text.stdout).toContain("  packs databases; own rules: team/deploy");
			expect(text.stdout).toContain("  make deploy\n      cwd ");
			expect(text.stdout).toContain("ask by team/deploy: deploys need a yes (a person may allow it)");
			expect(text.stdout).toContain(
				"the project's hooks: ask by ./.xcsh/hooks/guard.ts: deploys need a yes [team/deploy] (a person decides: the agent's own prompt where it has one; with nobody to ask, blocked)",
			);
			expect(ran.exists()).toBe(true); // the approved guard was loaded

			// Edited since approved: it fails closed, and explain says so instead of judging with it.
			writeFiles(dir, { ".xcsh/hooks/guard.ts": `${projectGuard(ran.path)}// edited\n` });
			const changed = await explain(cli, "ls", dir, home);
			expect(changed.stdout).toContain("judged by the default packs: a hook failed to load");
			expect(changed.stdout).toContain("failed to load: ./.xcsh/hooks/guard.ts: project hook changed since it was approved");
			expect(changed.stdout).toContain("the project's hooks: blocked");
			expect(changed.code).toBe(2);
			expect((await emit(cli, "ls", dir, home)).code).toBe(2);
		}, 240_000);

		test("an unapproved project guard is never imported: explain says so and judges with the default packs", async () => {
			const home = privateHome();
			const dir = tempDir("xcsh-explain-unapproved-");
			const ran = marker(dir);
			writeFiles(dir, { ".xcsh/hooks/guard.ts": projectGuard(ran.path) });

			const text = await explain(cli, RESET, dir, home);
			expect(text.code).toBe(2);
			expect(text.stdout).toContain("judged by the default packs: instead of the project hooks nobody approved");
			expect(text.stdout).toContain(
				`not approved, so never loaded: ./.xcsh/hooks/guard.ts (xcsh-hooks trust approve ${join(dir, ".xcsh/hooks/guard.ts")})`,
			);
			expect(text.stdout).toContain("blocked by git/reset-hard: git reset --hard discards uncommitted changes");
			expect(text.stdout).toContain("the project's hooks: allowed (what is not approved does not run)");
			const json = JSON.parse((await explain(cli, DROP, dir, home, "--json")).stdout);
			expect(json).toMatchObject({ verdict: "allow", guard: { packs: ["shell", "git", "filesystem"] }, source: { kind: "default" } });
			expect(json.source.notApproved).toEqual([
				{ path: join(dir, ".xcsh/hooks/guard.ts"), approve: `xcsh-hooks trust approve ${join(dir, ".xcsh/hooks/guard.ts")}` },
			]);
			expect(ran.exists()).toBe(false);

			const typo = await runCli(cli, ["guard", "explian", "ls"], { cwd: dir, home, timeoutMs: 60_000 });
			expect(typo.code).toBe(1);
			expect(typo.stderr).toContain('unknown action "explian" (did you mean "explain"?)');
		}, 240_000);
	});
}
