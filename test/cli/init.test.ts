import { beforeEach, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { validateEvent } from "../../src/hooks/validate.ts";
import { TEMPLATE_NAMES, TEMPLATES, type TemplateName } from "../../src/templates/index.ts";
import { createHookHarness } from "../../src/testing/index.ts";
import { TrustStore } from "../../src/trust/trust-store.ts";
import { tempDir } from "../_helpers.ts";

const REPO = join(import.meta.dir, "..", "..");
const CLI = join(REPO, "src", "cli.ts");

/**
 * Every test gets its own HOME: `init` writes the trust store and `--user` hooks there, and the HOME
 * the preload set is shared by every test file of this process (a stray user hook would be discovered).
 */
let home = "";
beforeEach(() => {
	home = tempDir("xcsh-hooks-init-home-");
});
const trustStore = () => new TrustStore(join(home, ".xcsh", "agent", "trust.json"));

/** A temp project where `xcsh-hooks` resolves, as after `bun add xcsh-hooks`. */
function project(): string {
	const dir = tempDir("xcsh-hooks-init-");
	mkdirSync(join(dir, "node_modules"));
	symlinkSync(REPO, join(dir, "node_modules", "xcsh-hooks"));
	return dir;
}

async function spawn(argv: string[], cwd: string) {
	const env = { ...process.env, HOME: home, USERPROFILE: home };
	const proc = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe", env });
	const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	return { code, stdout, stderr };
}

const cli = (args: string[], cwd: string) => spawn([process.execPath, CLI, ...args], cwd);

/** Runs `main` in this process with the test's HOME, capturing what it writes to stdout and stderr. */
async function inProcess(args: string[]) {
	const output = { stdout: "", stderr: "" };
	const previousHome = process.env.HOME;
	process.env.HOME = home;
	const write = Bun.write;
	const spy = spyOn(Bun, "write").mockImplementation((async (dest: unknown, data: unknown) => {
		if (dest === Bun.stdout) output.stdout += String(data);
		else if (dest === Bun.stderr) output.stderr += String(data);
		else return (write as (d: unknown, x: unknown) => Promise<number>)(dest, data);
		return 0;
	}) as typeof Bun.write);
	try {
		return { code: await main(args), ...output };
	} finally {
		spy.mockRestore();
		process.env.HOME = previousHome;
	}
}

/** Paths `init <name> --template <t>` writes below `dir`: [hook, test]. */
function paths(dir: string, template: TemplateName, name: string): [string, string] {
	const hooks = join(dir, ".xcsh", "hooks");
	return template === "shell"
		? [join(hooks, "pre", `${name}.sh`), join(hooks, "pre", `${name}.test.ts`)]
		: [join(hooks, `${name}.ts`), join(hooks, `${name}.test.ts`)];
}

describe("init in-process", () => {
	test.each(TEMPLATE_NAMES)(
		"%s: writes the hook and its test, and approves the hook",
		async (template) => {
			const dir = project();
			const { code, stdout } = await inProcess(["init", `my-${template}`, "--template", template, "--cwd", dir, "--json"]);
			expect(code).toBe(0);
			const [hook, testFile] = paths(dir, template, `my-${template}`);
			expect(JSON.parse(stdout).files.map((f: { path: string }) => f.path)).toEqual([hook, testFile]);
			expect(readFileSync(hook, "utf8")).not.toContain("__NAME__");
			expect(readFileSync(testFile, "utf8")).toContain(`my-${template}`);
			expect((await trustStore().check(hook)).trusted).toBe(true);
			if (template === "shell") expect(statSync(hook).mode & 0o777).toBe(0o755);
		},
		60_000,
	);

	test("guard is the default template", async () => {
		const dir = project();
		expect((await inProcess(["init", "safety", "--cwd", dir])).code).toBe(0);
		expect(readFileSync(join(dir, ".xcsh/hooks/safety.ts"), "utf8")).toBe(TEMPLATES.guard.files("safety")[0]?.content as string);
	}, 60_000);
});

describe("init as a subprocess, then bun test on the scaffold", () => {
	test.each(TEMPLATE_NAMES)(
		"%s",
		async (template) => {
			const dir = project();
			const name = `scaffold-${template}`;
			const init = await cli(["init", name, "--template", template, "--json"], dir);
			expect(init.stderr).toBe("");
			expect(init.code).toBe(0);
			const [hook, testFile] = paths(dir, template, name);
			const report = JSON.parse(init.stdout);
			expect(report.files).toEqual([
				{ path: hook, role: "hook", approved: true },
				{ path: testFile, role: "test", approved: true },
			]);
			const relativeTest = `./${testFile.slice(dir.length + 1)}`;
			expect(report.next).toContain(`xcsh-hooks test ${relativeTest}`);
			expect(report.next).toContain("xcsh-hooks check");

			const run = await spawn([process.execPath, "test", relativeTest], dir);
			expect(run.stderr).toMatch(/ [1-9]\d* pass\n 0 fail\n/);
			expect(run.stderr).not.toContain("(fail)");
			expect(run.code).toBe(0);

			// `check` loads the scaffold as discovered, approved project hook: no error, no skip.
			const check = await cli(["check", "--json"], dir);
			expect(check.code).toBe(0);
			const checked = JSON.parse(check.stdout);
			expect(checked).toMatchObject({ ok: true, loadErrors: [], skipped: [] });
			expect(checked.hooks.map((h: { path: string }) => h.path)).toEqual([hook]);
			const registered = checked.hooks[0].events.length + checked.hooks[0].commands.length;
			expect(registered).toBeGreaterThan(0);
		},
		60_000,
	);

	test("without a name: the guard is called guard, passes its own test through `xcsh-hooks test` and `check`", async () => {
		const dir = project();
		const init = await cli(["init", "--template", "guard", "--json"], dir);
		expect(init.code).toBe(0);
		const [hook, testFile] = paths(dir, "guard", "guard");
		expect(JSON.parse(init.stdout).files.map((f: { path: string }) => f.path)).toEqual([hook, testFile]);
		expect(readFileSync(hook, "utf8")).toContain("reason: `guard blocked this command: ${why}`");
		const run = await cli(["test"], dir);
		expect(run.stderr).toMatch(/ [1-9]\d* pass\n 0 fail\n/);
		expect(run.code).toBe(0);
		const check = await cli(["check", "--json"], dir);
		expect(check.code).toBe(0);
		expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, loadErrors: [], skipped: [], hooks: [{ path: hook }] });
		// A template with no name of its own says what to give.
		const command = await cli(["init", "--template", "command"], dir);
		expect(command.code).toBe(1);
		expect(command.stderr).toContain("--template command needs a hook name: xcsh-hooks init <name> --template command");
	}, 120_000);

	test("prints what it wrote and what to do next", async () => {
		const dir = project();
		const { code, stdout } = await cli(["init", "bash", "--template", "shell"], dir);
		expect(code).toBe(0);
		expect(stdout).toContain("./.xcsh/hooks/pre/bash.sh  (approved in the trust store)");
		expect(stdout).toContain('It gates calls of the tool "bash"');
		expect(stdout).toContain("xcsh-hooks test ./.xcsh/hooks/pre/bash.test.ts");
		expect(stdout).toContain(`xcsh-hooks emit tool_call --data '{"toolName":"bash"`);
		expect(stdout).not.toContain("bun add");
	}, 60_000);
});

test("generated files type-check in a strict project", async () => {
	const dir = project();
	for (const template of TEMPLATE_NAMES)
		expect((await inProcess(["init", `t-${template}`, "--template", template, "--cwd", dir])).code).toBe(0);
	const compilerOptions = {
		lib: ["ESNext"],
		target: "ESNext",
		module: "Preserve",
		moduleResolution: "bundler",
		allowImportingTsExtensions: true,
		verbatimModuleSyntax: true,
		noEmit: true,
		strict: true,
		skipLibCheck: true,
		noUncheckedIndexedAccess: true,
		types: ["bun"],
		typeRoots: [join(REPO, "node_modules", "@types")],
	};
	writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: [".xcsh/**/*.ts"] }));
	const { stdout } = await spawn([join(REPO, "node_modules", ".bin", "tsc"), "-p", dir], dir);
	// Only the scaffold's own diagnostics: the library's in-progress files are checked elsewhere.
	expect(stdout.split("\n").filter((line) => line.startsWith(".xcsh/"))).toEqual([]);
}, 60_000);

test("the tsconfig init writes says why it maps @f5-sales-demo/xcsh/hooks, and tsc -p reads it, comments and all", async () => {
	const dir = project();
	expect((await inProcess(["init", "mine", "--cwd", dir])).code).toBe(0);
	const text = readFileSync(join(dir, ".xcsh", "hooks", "tsconfig.json"), "utf8");
	expect(text).toMatch(/\/\/ The xcsh agent's name for this same hook API[^\n]*\n\t+"@f5-sales-demo\/xcsh\/hooks"/);
	expect(text).toMatch(/\/\/ [^\n]*undici-types[^\n]*\n\t+"undici-types"/);
	const { stdout } = await spawn([join(REPO, "node_modules", ".bin", "tsc"), "-p", join(dir, ".xcsh", "hooks")], dir);
	expect(stdout.split("\n").filter((line) => line.includes("error TS"))).toEqual([]);
}, 60_000);

describe("refusals", () => {
	test("an existing file is never overwritten without --force, and nothing is written", async () => {
		const dir = project();
		const [hook, testFile] = paths(dir, "guard", "mine");
		mkdirSync(join(dir, ".xcsh", "hooks"), { recursive: true });
		writeFileSync(testFile, "my own test");
		const message = `xcsh-hooks init: ${testFile} already exists; nothing written (pass --force to overwrite)\n`;
		expect(await inProcess(["init", "mine", "--cwd", dir])).toEqual({ code: 1, stdout: "", stderr: message });
		expect(await cli(["init", "mine"], dir)).toEqual({ code: 1, stdout: "", stderr: message });
		expect(readFileSync(testFile, "utf8")).toBe("my own test");
		expect(existsSync(hook)).toBe(false);

		expect((await inProcess(["init", "mine", "--cwd", dir, "--force"])).code).toBe(0);
		expect(readFileSync(testFile, "utf8")).toContain("createHookHarness");
	}, 60_000);

	test("a bad name says what is allowed", async () => {
		const dir = project();
		expect(await inProcess(["init", "My Hook", "--cwd", dir])).toMatchObject({ code: 1, stderr: expect.stringContaining('"My Hook"') });
		const { code, stderr } = await cli(["init", "Bad.Name"], dir);
		expect(code).toBe(1);
		expect(stderr).toContain('invalid hook name "Bad.Name": use lowercase letters, digits, "-" and "_"');
		expect(stderr.trim().split("\n")).toHaveLength(1);
		expect(existsSync(join(dir, ".xcsh"))).toBe(false);
	}, 60_000);

	test("an unknown template lists the templates", async () => {
		const dir = project();
		const { code, stderr } = await cli(["init", "x", "--template", "nope"], dir);
		expect(code).toBe(1);
		expect(stderr.trim()).toBe(`xcsh-hooks init: unknown template "nope"; expected one of: ${TEMPLATE_NAMES.join(", ")}`);
		expect(existsSync(join(dir, ".xcsh"))).toBe(false);
	}, 60_000);
});

describe("--user and next steps", () => {
	test("--user writes under HOME and needs no approval", async () => {
		const dir = project();
		const { code, stdout } = await cli(["init", "everywhere", "--user", "--json"], dir);
		expect(code).toBe(0);
		const hook = join(home, ".xcsh", "agent", "hooks", "everywhere.ts");
		expect(JSON.parse(stdout).files[0]).toEqual({ path: hook, role: "hook", approved: false });
		expect(existsSync(join(home, ".xcsh", "agent", "hooks", "everywhere.test.ts"))).toBe(true);
		expect(existsSync(join(dir, ".xcsh"))).toBe(false);
		expect((await trustStore().check(hook)).reason).toBe("unknown");

		const human = await cli(["init", "again", "--user"], dir);
		expect(human.stdout).toContain("  ~/.xcsh/agent/hooks/again.ts\n");
		expect(human.stdout).not.toContain("approved");
		expect(human.stdout).not.toContain("bun add");
		expect(human.stdout).toContain("xcsh-hooks test ~/.xcsh/agent/hooks/again.test.ts");
	}, 60_000);

	test("needs no package where xcsh-hooks does not resolve (xcsh-hooks test serves it), and puts --cwd in the commands", async () => {
		const dir = tempDir("xcsh-hooks-init-bare-");
		const { stdout } = await cli(["init", "bare", "--cwd", dir, "--json"], REPO);
		const { next } = JSON.parse(stdout) as { next: string[] };
		expect(next[0]).toStartWith("xcsh-hooks test ");
		expect(next.join("\n")).not.toContain("bun add");
		expect(next).toContain(`xcsh-hooks check --cwd ${dir}`);
	}, 60_000);

	test.each(TEMPLATE_NAMES)("%s: the suggested command is valid for the hook", async (template) => {
		const name = `ex-${template}`;
		const [command, type, flag, data] = TEMPLATES[template].example(name);
		if (command === "command") {
			const dir = project();
			expect((await inProcess(["init", name, "--template", template, "--cwd", dir])).code).toBe(0);
			const h = await createHookHarness(paths(dir, template, name)[0]);
			expect(h.hook.commands.has(type as string)).toBe(true);
			return;
		}
		expect([command, flag]).toEqual(["emit", "--data"]);
		const event = { type, toolCallId: "call_1", ...JSON.parse(data as string) };
		expect(validateEvent(event)).toMatchObject({ ok: true });
	});
});

test("templates are bundled as strings (they survive without the .txt files)", async () => {
	const out = tempDir("xcsh-hooks-bundle-");
	const entry = join(out, "entry.ts");
	writeFileSync(
		entry,
		`import { TEMPLATES } from ${JSON.stringify(join(REPO, "src", "templates", "index.ts"))};\n` +
			`console.log(JSON.stringify(TEMPLATES.shell.files("bash").map((f) => f.content.length)));\n`,
	);
	const build = await Bun.build({ entrypoints: [entry], outdir: join(out, "dist"), target: "bun" });
	expect(build.success).toBe(true);
	const { stdout, code } = await spawn([process.execPath, join(out, "dist", "entry.js")], out);
	expect(code).toBe(0);
	expect(JSON.parse(stdout)).toEqual(TEMPLATES.shell.files("bash").map((f) => f.content.length));
}, 60_000);
