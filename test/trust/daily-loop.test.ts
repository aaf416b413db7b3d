/**
 * The daily loop of trust and tests (issue 37, item 3), through both CLIs on real files:
 * - `test` fails (exit 1) when a test was skipped because it or its hook is not approved, naming each
 *   skipped file; `--skip-unapproved` lets such a run pass;
 * - `trust approve --all` approves the test files beside the hooks, and `trust` / `trust --json` list them;
 * - a teammate's hooks and tests approved through a signed team list show as approved, by that list
 *   (`trust`, `trust --json`, `list --json`), and `test` runs their tests;
 * - `test --approve` approves exactly the files whose tests just passed: never one whose test failed,
 *   never a hook no test ran (each said).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Cli, runCli, useClis } from "../faults/_cli.ts";
import { privateHome, tempDir, writeFiles } from "../faults/_fixtures.ts";

const clis = useClis();
const TIMEOUT_MS = 120_000;

const HOOK = (word: string) =>
	`export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("${word}") ? { block: true, reason: "no ${word}" } : undefined));\n`;
/** A test of `hook.ts` (beside it) that expects it to block `word`. */
const TEST = (hook: string, word: string) => `import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";
test("${hook} blocks ${word}", async () => {
	const h = await createHookHarness(\`\${import.meta.dir}/${hook}.ts\`);
	expect((await h.toolCall("bash", { command: "${word} now" })).blocked).toBe(true);
});
`;

async function ok(cli: Cli, args: string[], cwd: string, home: string) {
	const run = await runCli(cli, args, { cwd, home, timeoutMs: 60_000 });
	if (run.code !== 0) throw new Error(`${args.join(" ")} failed (${run.code}): ${run.stdout}${run.stderr}`);
	return run;
}

/** A project with hooks `a` and `b` and their tests, nothing approved. */
function project(): { dir: string; hooks: string } {
	const dir = tempDir("xcsh-loop-");
	const hooks = join(dir, ".xcsh", "hooks");
	writeFiles(hooks, { "a.ts": HOOK("alpha"), "a.test.ts": TEST("a", "alpha"), "b.ts": HOOK("beta"), "b.test.ts": TEST("b", "beta") });
	return { dir, hooks };
}

describe.each(clis.map((cli) => [cli.name, cli] as const))("%s", (_name, cli) => {
	test(
		"a test skipped for approval fails the run and is named; --skip-unapproved lets it pass; trust --all covers and lists tests",
		async () => {
			const { dir, hooks } = project();
			const home = privateHome();
			const run = (...args: string[]) => runCli(cli, args, { cwd: dir, home, timeoutMs: 60_000 });
			// Only `a` and its test approved: b's test is skipped.
			await ok(cli, ["trust", "approve", join(hooks, "a.ts"), join(hooks, "a.test.ts")], dir, home);
			const skipped = await run("test");
			expect(skipped.stdout + skipped.stderr).toContain("a blocks alpha");
			expect(skipped.code).toBe(1);
			expect(skipped.stderr).toContain("1 test file was skipped because it or the hooks it tests are not approved, so the run fails:");
			expect(skipped.stderr).toContain(`\n  ${join(hooks, "b.test.ts")}\n`);
			expect(skipped.stderr).toContain("--skip-unapproved");
			const allowed = await run("test", "--skip-unapproved");
			expect(allowed.stderr).toContain(`skipped ${join(hooks, "b.test.ts")}: not approved`);
			expect(allowed.code).toBe(0);

			// trust lists the test files, and --all approves them with the hooks.
			const before = JSON.parse((await ok(cli, ["trust", "--json"], dir, home)).stdout);
			expect(before.tests).toEqual([
				{ path: join(hooks, "a.test.ts"), status: "approved", approvedBy: "local" },
				{ path: join(hooks, "b.test.ts"), status: "not-approved" },
			]);
			expect((await ok(cli, ["trust"], dir, home)).stdout).toMatch(/✗ +not approved +\.xcsh\/hooks\/b\.test\.ts/);
			const all = await ok(cli, ["trust", "approve", "--all"], dir, home);
			expect(all.stdout).toContain(`approved ${join(hooks, "b.test.ts")}`);
			const after = JSON.parse((await ok(cli, ["trust", "--json"], dir, home)).stdout);
			expect(after.tests.map((t: { status: string }) => t.status)).toEqual(["approved", "approved"]);
			const clean = await run("test");
			expect(clean.stderr).not.toContain("skipped");
			expect(clean.code).toBe(0);
		},
		TIMEOUT_MS,
	);

	test(
		"hooks and tests approved through a signed team list show as approved by it, and their tests run",
		async () => {
			const org = tempDir("xcsh-loop-org-");
			const orgHome = privateHome();
			const key = join(org, "team.key");
			const publicKey = JSON.parse((await ok(cli, ["trust", "keygen", "--out", key, "--json"], org, orgHome)).stdout).publicKey;
			const maintainer = project();
			await ok(cli, ["trust", "approve", "--all"], maintainer.dir, orgHome);
			const list = join(org, "approved-hooks.json");
			await ok(cli, ["trust", "export", "--out", list], maintainer.dir, orgHome);
			await ok(cli, ["trust", "sign", "--key", key, list], org, orgHome);

			const clone = project();
			const home = privateHome({ teamApprovals: [{ list, publicKey }] });
			const trust = JSON.parse((await ok(cli, ["trust", "--json"], clone.dir, home)).stdout);
			for (const entry of [...trust.hooks, ...trust.tests])
				expect(entry).toMatchObject({ status: "approved", approvedBy: "team", teamList: list });
			expect(trust.tests).toHaveLength(2);
			const text = (await ok(cli, ["trust"], clone.dir, home)).stdout;
			expect(text).toMatch(/✓ +approved +\.xcsh\/hooks\/a\.ts\n +approved by the team list\n/);
			const listed = JSON.parse((await ok(cli, ["list", "--json"], clone.dir, home)).stdout);
			const a = listed.hooks.find((h: { path: string }) => h.path === join(clone.hooks, "a.ts"));
			expect(a).toMatchObject({ status: "run", approvedBy: "team", teamList: list });
			const tests = await runCli(cli, ["test"], { cwd: clone.dir, home, timeoutMs: 60_000 });
			expect(tests.stdout + tests.stderr).toContain("a blocks alpha");
			expect(tests.stdout + tests.stderr).toContain("b blocks beta");
			expect(tests.stderr).not.toContain("skipped");
			expect(tests.code).toBe(0);
		},
		TIMEOUT_MS,
	);

	test(
		"a hook's approval covers the files it imports: its test loads them; one edited makes it changed, and --approve approves it again",
		async () => {
			const dir = tempDir("xcsh-loop-lib-");
			const hooks = join(dir, ".xcsh", "hooks");
			const hook = `import { WORD } from "./lib/word.ts";\nexport default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes(WORD) ? { block: true, reason: "no " + WORD } : undefined));\n`;
			writeFiles(hooks, { "c.ts": hook, "lib/word.ts": `export const WORD = "gamma";\n`, "c.test.ts": TEST("c", "gamma") });
			const home = privateHome();
			await ok(cli, ["trust", "approve", "--all"], dir, home);
			const run = (...args: string[]) => runCli(cli, args, { cwd: dir, home, timeoutMs: 60_000 });
			const first = await run("test");
			expect(first.stdout + first.stderr).toContain("(pass) c blocks gamma");
			expect(first.code).toBe(0);
			writeFiles(hooks, { "lib/word.ts": `export const WORD = "gamma"; // edited\n` });
			const edited = await run("test");
			expect(edited.stderr).toContain(
				`it tests ${join(hooks, "c.ts")}, which is changed since it was approved (${join(hooks, "lib", "word.ts")}, which it runs)`,
			);
			expect(edited.code).toBe(1);
			const approve = await run("test", "--approve");
			expect(approve.stdout).toContain(`approved ${join(hooks, "c.ts")} with the file it runs`);
			expect(approve.code).toBe(0);
			expect((await run("test")).code).toBe(0);
		},
		TIMEOUT_MS,
	);

	test(
		"test --approve approves exactly the files whose tests passed: not a failing test's, not a hook without a test",
		async () => {
			const { dir, hooks } = project();
			const home = privateHome();
			writeFiles(hooks, { "lonely.ts": HOOK("gamma") });
			// b's hook no longer does what its test expects.
			writeFiles(hooks, { "b.ts": HOOK("delta") });
			const run = await runCli(cli, ["test", "--approve"], { cwd: dir, home, timeoutMs: 60_000 });
			const out = run.stdout + run.stderr;
			expect(out).toContain(`approved ${join(hooks, "a.test.ts")}`);
			expect(out).toContain(`approved ${join(hooks, "a.ts")}`);
			expect(out).toContain(`not approved ${join(hooks, "b.test.ts")}: a test of it failed`);
			expect(out).toContain(`not approved ${join(hooks, "b.ts")}: a test of it failed`);
			expect(out).toContain(`not approved ${join(hooks, "lonely.ts")}: no test of it ran`);
			expect(run.code).toBe(1);
			const trust = JSON.parse((await ok(cli, ["trust", "--json"], dir, home)).stdout);
			const state = Object.fromEntries(
				[...trust.hooks, ...trust.tests].map((h: { path: string; status: string }) => [h.path.slice(hooks.length + 1), h.status]),
			);
			expect(state).toEqual({
				"a.ts": "approved",
				"a.test.ts": "approved",
				"b.ts": "not-approved",
				"b.test.ts": "not-approved",
				"lonely.ts": "not-approved",
			});
			// Fixed: the loop approves it, and the plain run passes with nothing skipped.
			writeFiles(hooks, { "b.ts": HOOK("beta") });
			const again = await runCli(cli, ["test", "--approve"], { cwd: dir, home, timeoutMs: 60_000 });
			expect(again.stdout).toContain(`approved ${join(hooks, "b.ts")}`);
			expect(again.code).toBe(0);
			const plain = await runCli(cli, ["test"], { cwd: dir, home, timeoutMs: 60_000 });
			expect(plain.stderr).not.toContain("skipped");
			expect(plain.code).toBe(0);
		},
		TIMEOUT_MS,
	);
});
