/**
 * Nothing from the project runs before trust is decided, whichever way the CLI was started (docs/contract.md#trust,
 * Trust): not its `bunfig.toml` preload, not its `.env`. A project that tries both, run with `list`,
 * `trust` and `emit tool_call` from its own directory by (a) the compiled executable, (b) src/cli.ts
 * started as a program through its shebang (as the package's `bin` is), (c) `bun src/cli.ts`.
 */
import { describe, expect, test } from "bun:test";
import { accessSync, constants, readFileSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, CLI_SOURCE, executablePath, type Run, runArgv, useClis } from "./_cli.ts";
import { bashCall, marker, privateHome, tempDir, touch, writeFiles } from "./_fixtures.ts";

useClis(); // builds the executable

interface Project {
	dir: string;
	home: string;
	preloadRan: ReturnType<typeof marker>;
	fakeHookRan: ReturnType<typeof marker>;
}

/** A fresh project (one per test, so no test sees another's markers) and the user's HOME. */
function makeProject(): Project {
	const dir = tempDir("xcsh-faults-preload-");
	const home = privateHome();
	const preloadRan = marker(dir, "PRELOAD-RAN");
	const fakeHookRan = marker(dir, "FAKEHOME-HOOK-RAN");
	writeFiles(dir, {
		"bunfig.toml": 'preload = ["./pre.ts"]\n',
		"pre.ts": `${touch(preloadRan.path)}\n`,
		".env": `HOME=${join(dir, "fakehome")}\nXCSH_DOTENV_PROBE=leaked\n`,
		"fakehome/.xcsh/agent/hooks/x.ts": `${touch(fakeHookRan.path)}\nexport default () => {};\n`,
	});
	// The user's own guard reports what environment the hooks see.
	writeFiles(home, {
		".xcsh/agent/hooks/probe.ts": `export default (pi) => pi.on("tool_call", () => ({
	block: true,
	reason: "probe=" + (process.env.XCSH_DOTENV_PROBE ?? "unset") + " home=" + process.env.HOME,
}));
`,
	});
	return { dir, home, preloadRan, fakeHookRan };
}

/**
 * The argv that starts `file` as a program: the file itself when it is executable; otherwise what the
 * kernel would run for its `#!` line (the interpreter, then the rest of the line as one argument),
 * so the shebang's behaviour is tested even where the file mode was lost.
 */
function asProgram(file: string): string[] {
	try {
		accessSync(file, constants.X_OK);
		return [file];
	} catch {}
	const first = readFileSync(file, "utf8").split("\n", 1)[0] ?? "";
	if (!first.startsWith("#!")) throw new Error(`${file} has no #! line`);
	const line = first.slice(2).trim();
	const space = line.search(/\s/);
	return space < 0 ? [line, file] : [line.slice(0, space), line.slice(space).trim(), file];
}

interface Runs {
	list: Run;
	trust: Run;
	emit: Run;
}

/** `list`, `trust --json` and `emit tool_call`, run concurrently from the project directory. */
async function runAll(p: Project, argv: (args: string[]) => string[]): Promise<Runs> {
	const opts = { cwd: p.dir, home: p.home };
	const [list, trust, emit] = await Promise.all([
		runArgv(argv(["list"]), opts),
		runArgv(argv(["trust", "--json"]), opts),
		runArgv(argv(["emit", "tool_call"]), { ...opts, stdin: bashCall("touch x") }),
	]);
	return { list, trust, emit };
}

/** The project's .env and fake HOME never reached xcsh-hooks or the hooks it ran. */
function expectEnvUntouched(p: Project, { list, trust, emit }: Runs): void {
	for (const run of [list, trust, emit]) expect(run.timedOut).toBe(false);
	expect(list.code).toBe(0);
	expect(list.stdout).toContain("~/.xcsh/agent/hooks/probe.ts");
	expect(list.stdout).not.toContain("fakehome");
	expect(trust.code).toBe(0);
	expect(JSON.parse(trust.stdout).trustFile).toBe(join(p.home, ".xcsh", "agent", "trust.json"));
	expect(emit.code).toBe(2);
	expect(JSON.parse(emit.stdout).result.reason).toBe(`probe=unset home=${p.home}`);
	expect(p.fakeHookRan.exists()).toBe(false);
}

describe("a project with a bunfig.toml preload and a .env replacing HOME, before any approval", () => {
	test.concurrent(
		"(a) the compiled executable: the preload never runs, the .env never reaches the hooks",
		async () => {
			const p = makeProject();
			expectEnvUntouched(p, await runAll(p, (args) => [executablePath(), ...args]));
			expect(p.preloadRan.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"(b) src/cli.ts started as a program (its shebang, as the package's bin): the preload never runs, the .env never reaches the hooks",
		async () => {
			const p = makeProject();
			const program = asProgram(CLI_SOURCE);
			expectEnvUntouched(p, await runAll(p, (args) => [...program, ...args]));
			expect(p.preloadRan.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"(c) bun src/cli.ts: Bun runs the preload before xcsh-hooks starts, but the .env never reaches the hooks and stderr says the bunfig.toml was read",
		async () => {
			const p = makeProject();
			const runs = await runAll(p, (args) => [process.execPath, CLI_SOURCE, ...args]);
			expectEnvUntouched(p, runs);
			for (const run of Object.values(runs)) expect(run.stderr).toContain("bunfig.toml");
		},
		CELL_TIMEOUT_MS,
	);
});
