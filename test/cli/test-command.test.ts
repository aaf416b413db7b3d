/**
 * `xcsh-hooks test` (docs/contract.md#cli): a hook author with nothing but the downloaded executable can `init`,
 * `test`, `check` and try the hook. Run with the real compiled executable in a folder with no
 * `node_modules` anywhere above it, an empty HOME, and only the executable's folder on PATH.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildExecutable } from "../../scripts/build.ts";

const ROOT = join(import.meta.dir, "..", "..");
let root = "";
let bin = "";

function nodeModulesAbove(dir: string): string | undefined {
	for (let current = dir; ; current = dirname(current)) {
		if (existsSync(join(current, "node_modules"))) return join(current, "node_modules");
		if (dirname(current) === current) return undefined;
	}
}

interface Run {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs `argv` in `cwd` with only PATH (the executable's folder) and HOME in the environment. */
async function run(argv: string[], cwd: string, home: string): Promise<Run> {
	const proc = Bun.spawn(argv, {
		cwd,
		env: { PATH: dirname(bin), HOME: home, NO_COLOR: "1" },
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
		timeout: 60_000,
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

/** A fresh empty project and an empty HOME below the test root. */
function workspace(): { project: string; home: string } {
	const dir = mkdtempSync(join(root, "ws-"));
	mkdirSync(join(dir, "project"));
	mkdirSync(join(dir, "home"));
	return { project: join(dir, "project"), home: join(dir, "home") };
}

beforeAll(async () => {
	root = realpathSync(mkdtempSync(join(existsSync("/tmp") ? "/tmp" : tmpdir(), "xcsh-hooks-test-cmd-")));
	const leak = nodeModulesAbove(root);
	if (leak) throw new Error(`${leak} exists above ${root}; this test needs a tree without node_modules`);
	bin = (await buildExecutable({ outfile: join(root, "bin", "xcsh-hooks") })).outfile;
}, 120_000);

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("the executable alone: init → test → check → emit", () => {
	test("init guard, then exactly the next steps it prints: test passes, check passes, emit tool_call blocks", async () => {
		const { project, home } = workspace();
		const init = await run(["xcsh-hooks", "init", "guard"], project, home);
		expect(init.code).toBe(0);
		const next = init.stdout
			.slice(init.stdout.indexOf("Next:"))
			.split("\n")
			.slice(1)
			.map((l) => l.trim())
			.filter(Boolean);
		expect(next.map((step) => step.split(" ").slice(0, 2).join(" "))).toEqual(["xcsh-hooks test", "xcsh-hooks check", "xcsh-hooks emit"]);

		// Each step as printed, through a shell word split of our own (the steps quote with '…').
		const argv = (step: string) => (step.match(/'[^']*'|\S+/g) ?? []).map((w) => (w.startsWith("'") ? w.slice(1, -1) : w));
		const [testStep = "", checkStep = "", emitStep = ""] = next;
		const tested = await run(argv(testStep), project, home);
		expect(tested.stderr + tested.stdout).toContain("5 pass");
		expect(tested.stderr + tested.stdout).toContain("0 fail");
		expect(tested.code).toBe(0);

		const checked = await run(argv(checkStep), project, home);
		expect(checked.stdout).toContain("1 hook loaded, 0 failed");
		expect(checked.code).toBe(0);

		const emitted = await run(argv(emitStep), project, home);
		expect(emitted.code).toBe(2);
		expect(JSON.parse(emitted.stdout).result).toMatchObject({ block: true });
		expect(emitted.stderr).toContain("guard blocked this command: a recursive delete");

		// Without paths it finds the same test next to the discovered hook.
		const discovered = await run(["xcsh-hooks", "test"], project, home);
		expect(discovered.stderr + discovered.stdout).toContain("5 pass");
		expect(discovered.code).toBe(0);
	}, 90_000);

	test("a failing test fails the run (exit 1); tests may value-import TypeBox and the library", async () => {
		const { project, home } = workspace();
		writeFileSync(
			join(project, "lib.test.ts"),
			`import { expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { HookRunner } from "xcsh-hooks";
import * as hooks from "xcsh-hooks/hooks";
test("served", () => {
	expect(Value.Check(Type.String(), "x")).toBe(true);
	expect(hooks.HookRunner).toBe(HookRunner);
	expect(process.env.BUN_BE_BUN).toBeUndefined();
});
test("fails", () => expect(1).toBe(2));
`,
		);
		// A project test file is project code: it runs once approved (test/faults/test-command-trust.test.ts).
		expect((await run(["xcsh-hooks", "trust", "approve", "lib.test.ts"], project, home)).code).toBe(0);
		const result = await run(["xcsh-hooks", "test", "lib.test.ts"], project, home);
		const output = result.stderr + result.stdout;
		expect(output).toContain("(pass) served");
		expect(output).toContain("(fail) fails");
		expect(result.code).toBe(1);
	}, 60_000);

	test("no tests to run is an error that says how to get one; a missing path is named", async () => {
		const { project, home } = workspace();
		const none = await run(["xcsh-hooks", "test"], project, home);
		expect(none.code).toBe(1);
		expect(none.stderr).toContain("xcsh-hooks init <name>");
		const missing = await run(["xcsh-hooks", "test", "nope.test.ts"], project, home);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain("nope.test.ts: no such file or folder");
	}, 60_000);

	test("a project's bunfig.toml preload and .env do not reach the test run", async () => {
		const { project, home } = workspace();
		writeFileSync(join(project, "bunfig.toml"), '[test]\npreload = ["./evil.ts"]\n');
		writeFileSync(join(project, "evil.ts"), 'console.log("EVIL-PRELOAD-RAN");\n');
		writeFileSync(join(project, ".env"), "XCSH_PROBE=leaked\n");
		writeFileSync(
			join(project, "env.test.ts"),
			'import { expect, test } from "bun:test";\ntest("env", () => expect(process.env.XCSH_PROBE).toBeUndefined());\n',
		);
		expect((await run(["xcsh-hooks", "trust", "approve", "env.test.ts"], project, home)).code).toBe(0);
		const result = await run(["xcsh-hooks", "test", "env.test.ts"], project, home);
		expect(result.stdout + result.stderr).not.toContain("EVIL-PRELOAD-RAN");
		expect(result.code).toBe(0);
	}, 60_000);
});

describe("from source", () => {
	test("bun src/cli.ts test runs a scaffolded hook's test", async () => {
		const { project, home } = workspace();
		const cli = join(ROOT, "src", "cli.ts");
		const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" };
		const opts = { cwd: project, env, stdout: "pipe", stderr: "pipe" } as const;
		expect(await Bun.spawn([process.execPath, cli, "init", "g"], opts).exited).toBe(0);
		const proc = Bun.spawn([process.execPath, cli, "test"], opts);
		const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		expect(out + err).toContain("5 pass");
		expect(code).toBe(0);
	}, 60_000);
});
