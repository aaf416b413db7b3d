/**
 * `xcsh-hooks test` never imports or runs anything unapproved (issue 18, item 2; docs/contract.md#trust). A
 * fresh clone beside the user's own approved hook holds hooks and tests that, the moment any of them
 * is imported or run, leave a marker file. Through both CLIs: none of them may leave one; each skipped
 * test is named with the `trust approve` command that lets it run, and that printed command works.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type Cli, type Run, runCli, useClis } from "./_cli.ts";
import { marker, privateHome, tempDir, touch, writeFiles } from "./_fixtures.ts";

const clis = useClis();
const TIMEOUT_MS = 60_000;
const RUN_MS = 45_000;

/** A hook module that leaves `mark` when it is imported, and registers a harmless handler. */
const hookModule = (mark: string) => `${touch(mark)}\nexport default (pi) => pi.on("tool_call", () => undefined);\n`;

/** A test file that leaves `mark` when it is imported, then loads `hook` (beside it) through the harness. */
const testModule = (mark: string, hook: string) => `${touch(mark)}
import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";
test("loads ${hook}", async () => {
	const h = await createHookHarness(\`\${import.meta.dir}/${hook}\`);
	expect((await h.toolCall("bash", { command: "ls" })).blocked).toBe(false);
});
`;

interface Project {
	dir: string;
	home: string;
	hooks: string;
	run: (...args: string[]) => Promise<Run>;
	output: (run: Run) => string;
}

/** A project with the user's own scaffolded (approved) hook `mine` and its test. */
async function project(cli: Cli): Promise<Project> {
	const dir = tempDir("xcsh-faults-testcmd-");
	const home = privateHome();
	const run = (...args: string[]) => runCli(cli, args, { cwd: dir, home, timeoutMs: RUN_MS });
	const init = await run("init", "mine");
	expect(init.code).toBe(0);
	return { dir, home, hooks: join(dir, ".xcsh", "hooks"), run, output: (r) => r.stdout + r.stderr };
}

/** The `xcsh-hooks trust approve …` command printed for `path`, as argv after `xcsh-hooks`. */
function approveCommand(output: string, path: string): string[] {
	const line = output.split("\n").find((l) => l.startsWith(`skipped ${path}:`));
	const command = line?.match(/\(xcsh-hooks (trust approve [^)]*)\)$/)?.[1];
	if (!command) throw new Error(`no approve command for ${path} in:\n${output}`);
	return command.split(" ");
}

describe.each(clis.map((cli) => [cli.name, cli] as const))("%s", (_name, cli) => {
	test(
		"tests next to an unapproved hook are skipped, never imported, with the command that approves them",
		async () => {
			const p = await project(cli);
			const hookRan = marker(p.dir, "EVIL-HOOK-IMPORTED");
			const testRan = marker(p.dir, "EVIL-TEST-IMPORTED");
			const loneRan = marker(p.dir, "LONE-TEST-IMPORTED");
			writeFiles(p.hooks, {
				"evil.ts": hookModule(hookRan.path),
				"evil.test.ts": testModule(testRan.path, "evil.ts"),
				// A test of no hook at all, beside the approved one.
				"lone.test.ts": `${touch(loneRan.path)}\nimport { test } from "bun:test";\ntest("lone", () => {});\n`,
			});
			const evilTest = join(p.hooks, "evil.test.ts");
			const evilHook = join(p.hooks, "evil.ts");
			const lone = join(p.hooks, "lone.test.ts");

			const result = await p.run("test");
			const out = p.output(result);
			expect(hookRan.exists()).toBe(false);
			expect(testRan.exists()).toBe(false);
			expect(loneRan.exists()).toBe(false);
			expect(out).toContain(
				`skipped ${evilTest}: not approved; it tests ${evilHook}, which is not approved (xcsh-hooks trust approve ${evilTest} ${evilHook})`,
			);
			expect(out).toContain(`skipped ${lone}: not approved (xcsh-hooks trust approve ${lone})`);
			expect(out).toMatch(/mine\.test\.ts:[\s\S]* [1-9]\d* pass\n 0 fail/); // the user's own approved test still runs, all of it
			expect(out).not.toContain("(pass) loads evil.ts");
			// Skipped for approval: the run fails, naming each (issue 37); --skip-unapproved lets it pass.
			expect(result.stderr).toContain(`2 test files were skipped because they or the hooks they test are not approved`);
			expect(result.stderr).toContain(`\n  ${evilTest}\n  ${lone}\n`);
			expect(result.code).toBe(1);
			expect((await p.run("test", "--skip-unapproved")).code).toBe(0);

			// Named as a file or as a folder: the same decision, and nothing left to run is an error.
			for (const named of [evilTest, ".xcsh"]) {
				const again = await p.run("test", named);
				expect(p.output(again)).toContain(`skipped ${evilTest}: not approved;`);
				expect(hookRan.exists() || testRan.exists() || loneRan.exists()).toBe(false);
			}
			const only = await p.run("test", evilTest);
			expect(only.code).toBe(1);
			expect(only.stderr).toContain("no test file may run");

			// The printed command is the one that lets the test run.
			expect((await p.run(...approveCommand(out, evilTest))).code).toBe(0);
			const approved = await p.run("test", evilTest);
			expect(p.output(approved)).toContain("(pass) loads evil.ts");
			expect(approved.code).toBe(0);
			expect(hookRan.exists() && testRan.exists()).toBe(true);
		},
		TIMEOUT_MS,
	);

	test(
		"an approved test loads no unapproved project file: not through the harness, an import or require",
		async () => {
			const p = await project(cli);
			const hookRan = marker(p.dir, "UNAPPROVED-HOOK-IMPORTED");
			const libRan = marker(p.dir, "UNAPPROVED-LIB-IMPORTED");
			writeFiles(p.hooks, {
				"other.ts": hookModule(hookRan.path),
				"lib/policy.ts": `${touch(libRan.path)}\nexport const deny = ["rm"];\n`,
				// Named after no hook: its own approval is all the pre-check can ask for.
				"suite.test.ts": `import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";
test("harness", async () => {
	await createHookHarness(\`\${import.meta.dir}/other.ts\`);
});
test("dynamic import", async () => {
	await import("./lib/policy.ts?fresh=1");
});
test("require", () => {
	require("./lib/policy.ts");
});
`,
			});
			const suite = join(p.hooks, "suite.test.ts");
			expect((await p.run("trust", "approve", suite)).code).toBe(0);

			const result = await p.run("test", suite);
			const out = p.output(result);
			expect(hookRan.exists()).toBe(false);
			expect(libRan.exists()).toBe(false);
			const other = join(p.hooks, "other.ts");
			const policy = join(p.hooks, "lib", "policy.ts");
			expect(out).toContain(`refused to load ${other}: not approved (xcsh-hooks trust approve ${other})`);
			expect(out).toContain(`refused to load ${policy}: not approved (xcsh-hooks trust approve ${policy})`);
			expect(out).toContain("0 pass");
			expect(result.code).toBe(1);
		},
		TIMEOUT_MS,
	);

	test(
		"a shell hook an approved test loads through the harness runs only from approved bytes",
		async () => {
			const p = await project(cli);
			const scriptRan = marker(p.dir, "HARNESS-SHELL-HOOK-RAN");
			writeFiles(p.hooks, {
				"pre/bash.sh": `#!/bin/sh\ntouch '${scriptRan.path}'\nexit 0\n`,
				"runner.test.ts": `import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";
test("runs pre/bash.sh", async () => {
	const h = await createHookHarness(\`\${import.meta.dir}/pre/bash.sh\`);
	expect((await h.toolCall("bash", { command: "ls" })).blocked).toBe(false);
});
`,
			});
			const script = join(p.hooks, "pre", "bash.sh");
			const suite = join(p.hooks, "runner.test.ts");
			expect((await p.run("trust", "approve", suite)).code).toBe(0);

			const refused = await p.run("test", suite);
			expect(scriptRan.exists()).toBe(false);
			expect(p.output(refused)).toContain(`refused to run ${script}: not approved (xcsh-hooks trust approve ${script})`);
			expect(refused.code).toBe(1);

			expect((await p.run("trust", "approve", script)).code).toBe(0);
			const approved = await p.run("test", suite);
			expect(p.output(approved)).toContain("(pass) runs pre/bash.sh");
			expect(scriptRan.exists()).toBe(true);

			// Edited after approval: refused again, and the edit never runs.
			const editRan = marker(p.dir, "EDITED-SHELL-HOOK-RAN");
			await Bun.write(script, `#!/bin/sh\ntouch '${editRan.path}'\nexit 0\n`);
			const edited = await p.run("test", suite);
			expect(editRan.exists()).toBe(false);
			expect(p.output(edited)).toContain(`refused to run ${script}: changed since it was approved (xcsh-hooks trust approve ${script})`);
			expect(edited.code).toBe(1);
		},
		TIMEOUT_MS,
	);

	test(
		"a test or hook edited after approval is skipped; so is the test of an unapproved shell hook",
		async () => {
			const p = await project(cli);
			const mine = join(p.hooks, "mine.ts");
			const mineTest = join(p.hooks, "mine.test.ts");
			const editedRan = marker(p.dir, "EDITED-HOOK-IMPORTED");
			await Bun.write(mine, hookModule(editedRan.path));

			const scriptRan = marker(p.dir, "SHELL-HOOK-RAN");
			writeFiles(p.hooks, {
				"pre/bash.sh": `#!/bin/sh\ntouch '${scriptRan.path}'\nexit 0\n`,
				"pre/bash.test.ts": `import { test } from "bun:test";
test("runs the script", async () => {
	await Bun.spawn([\`\${import.meta.dir}/bash.sh\`]).exited;
});
`,
			});
			const script = join(p.hooks, "pre", "bash.sh");
			const scriptTest = join(p.hooks, "pre", "bash.test.ts");
			expect((await p.run("trust", "approve", scriptTest)).code).toBe(0);

			const result = await p.run("test");
			const out = p.output(result);
			expect(editedRan.exists()).toBe(false);
			expect(scriptRan.exists()).toBe(false);
			expect(out).toContain(
				`skipped ${mineTest}: it tests ${mine}, which is changed since it was approved (xcsh-hooks trust approve ${mine})`,
			);
			expect(out).toContain(`skipped ${scriptTest}: it tests ${script}, which is not approved (xcsh-hooks trust approve ${script})`);
			expect(result.code).toBe(1);

			// An approved test edited afterwards is skipped as well.
			expect((await p.run("trust", "approve", mine, script)).code).toBe(0);
			await Bun.write(mineTest, `${touch(editedRan.path)}\nimport { test } from "bun:test";\ntest("x", () => {});\n`);
			const edited = await p.run("test", mineTest);
			expect(editedRan.exists()).toBe(false);
			expect(p.output(edited)).toContain(`skipped ${mineTest}: changed since it was approved (xcsh-hooks trust approve ${mineTest})`);
			expect(edited.code).toBe(1);
		},
		TIMEOUT_MS,
	);
});
