/**
 * A newcomer's first hour, scripted: only the compiled executable (copied alone into a folder that
 * is the whole PATH, so no `bun` can be found), a fresh HOME and a fresh project with no
 * `node_modules` anywhere above it. `init`, editor types that `tsc` accepts, `test`, `check`,
 * `install claude --dry-run`, `log -n 5` — each output checked.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SERVED_NAMES } from "../../src/hooks/served-names.ts";
import { LIBRARY_MODULES, PACKAGE_MODULES } from "../../src/embedded/modules.ts";
import { executablePath, ROOT, runArgv, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";

const clis = useClis();
const TSC = join(ROOT, "node_modules", ".bin", "tsc");

/** The executable alone in a folder, that folder the whole PATH: `bun` is not on it. */
function lonelyExecutable(): { bin: string; path: string } {
	const dir = tempDir("xcsh-newcomer-bin-");
	const bin = join(dir, "xcsh-hooks");
	copyFileSync(executablePath(), bin);
	return { bin, path: dir };
}

/** No node_modules at or above `dir`: the types must come from the executable. */
function noNodeModulesAbove(dir: string): boolean {
	for (let d = dir; ; d = dirname(d)) {
		if (existsSync(join(d, "node_modules"))) return false;
		if (dirname(d) === d) return true;
	}
}

/** The repo's tsc run against a tsconfig, as an editor's language service would read it. */
async function tsc(project: string, home: string) {
	return runArgv([TSC, "-p", project, "--pretty", "false"], { cwd: dirname(project), home, timeoutMs: 60_000 });
}

describe("a newcomer with only the executable", () => {
	test("init, editor types, test, check, install claude --dry-run, log -n 5", async () => {
		const { bin, path } = lonelyExecutable();
		const home = tempDir("xcsh-newcomer-home-");
		const project = tempDir("xcsh-newcomer-project-");
		expect(noNodeModulesAbove(project)).toBe(true);
		expect(Bun.which("bun", { PATH: path })).toBeNull();
		const run = (args: string[]) => runArgv([bin, ...args], { cwd: project, home, env: { PATH: path }, timeoutMs: 60_000 });

		const init = await run(["init", "my-guard"]);
		expect(init.stderr).toBe("");
		expect(init.code).toBe(0);
		expect(init.stdout).toContain("./.xcsh/hooks/my-guard.ts  (approved in the trust store)");
		expect(init.stdout).toContain("./.xcsh/hooks/tsconfig.json  (editor types in ./.xcsh/types)");
		for (const file of ["hooks/my-guard.ts", "hooks/my-guard.test.ts", "hooks/tsconfig.json", "types/xcsh-hooks/index.d.ts"])
			expect(existsSync(join(project, ".xcsh", file))).toBe(true);
		expect(readFileSync(join(project, ".xcsh", "types", ".gitignore"), "utf8")).toBe("*\n");

		// The scaffold type-checks against the extracted declarations alone…
		const tsconfig = join(project, ".xcsh", "hooks", "tsconfig.json");
		const clean = await tsc(tsconfig, home);
		expect(clean.stdout + clean.stderr).toBe("");
		expect(clean.code).toBe(0);
		// …and they are real types, not `any`: a wrong event name, a wrong TypeBox or Bun type is an error.
		const bad = join(project, ".xcsh", "hooks", "typo.test.ts");
		writeFileSync(
			bad,
			[
				'import type { HookAPI } from "xcsh-hooks";',
				'import { Type } from "@sinclair/typebox";',
				'export const wrong = (pi: HookAPI) => pi.on("tool_cal", () => undefined);',
				"export const n: number = Type.String();",
				"export const d: number = import.meta.dir;",
				"",
			].join("\n"),
		);
		const typos = await tsc(tsconfig, home);
		expect(typos.code).not.toBe(0);
		expect(typos.stdout).toContain(`typo.test.ts(3,`);
		expect(typos.stdout).toContain(`'"tool_cal"'`);
		expect(typos.stdout).toContain("Type 'TString' is not assignable to type 'number'");
		expect(typos.stdout).toContain("Type 'string' is not assignable to type 'number'");
		rmSync(bad);

		const tested = await run(["test", ".xcsh/hooks/my-guard.test.ts"]);
		expect(tested.code).toBe(0);
		expect(tested.stderr).toMatch(/\b\d+ pass\b/);
		expect(tested.stderr).toContain(" 0 fail");

		// The tsconfig's `paths` lead editors to .d.ts files; the hook still runs on the executable's library.
		const check = await run(["check"]);
		expect(check.code).toBe(0);
		expect(check.stdout).toContain("✓ .xcsh/hooks/my-guard.ts");
		expect(check.stdout).toContain("1 hook loaded, 0 failed");

		expect((await run(["emit", "tool_call", "--data", JSON.stringify({ toolName: "bash", input: { command: "pwd" } })])).code).toBe(0);
		const blocked = await run(["emit", "tool_call", "--data", JSON.stringify({ toolName: "bash", input: { command: "rm -rf /" } })]);
		expect(blocked.code).toBe(2);
		expect(blocked.stdout).toContain("my-guard blocked this command: a recursive delete");

		const dry = await run(["install", "claude", "--dry-run"]);
		expect(dry.code).toBe(0);
		// The settings it would write on stdout, what it would do on stderr.
		const settings = JSON.parse(dry.stdout) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
		// A project's entry names xcsh-hooks on PATH, not this executable's path: the file is committed.
		expect(settings.hooks.PreToolUse?.[0]?.hooks[0]?.command).toBe(
			entryCommand("xcsh-hooks bridge claude --installed-by=xcsh-hooks", true),
		);
		expect(dry.stderr).toContain(`would write ${join(project, ".claude", "settings.json")}`);
		expect(existsSync(join(project, ".claude"))).toBe(false);

		// Six decisions logged (allow, deny, four allows); `log -n 5` shows the last five, oldest first.
		for (const command of ["ls", "echo hi", "date", "true"]) {
			const allowed = await run(["emit", "tool_call", "--data", JSON.stringify({ toolName: "bash", input: { command } })]);
			expect(allowed.code).toBe(0);
		}
		const log = await run(["log", "-n", "5"]);
		expect(log.stderr).toBe("");
		expect(log.code).toBe(0);
		const entries = log.stdout.split("\n").filter((line) => / cli +- +tool_call\/bash /.test(line));
		expect(entries).toHaveLength(5);
		expect(entries[0]).toMatch(/ deny .*my-guard blocked this command: a recursive delete/);
		expect(entries.slice(1).every((line) => / allow\b/.test(line))).toBe(true);
		const last = await run(["log", "-n", "1", "--json"]);
		expect(last.stdout.trim().split("\n")).toHaveLength(1);
		expect(JSON.parse(last.stdout)).toMatchObject({ agent: "cli", event: "tool_call", decision: "allow" });
	}, 120_000);

	test("a second hook, written where the tsconfig already maps the library, is approved and runs", async () => {
		const { bin, path } = lonelyExecutable();
		const home = tempDir("xcsh-newcomer-home-");
		const project = tempDir("xcsh-newcomer-project-");
		const run = (args: string[]) => runArgv([bin, ...args], { cwd: project, home, env: { PATH: path }, timeoutMs: 60_000 });
		expect((await run(["init", "first"])).code).toBe(0);
		const second = await run(["init", "second", "--template", "status"]);
		expect(second.stderr).toBe("");
		expect(second.code).toBe(0);
		expect(second.stdout).toContain("Editor types refreshed in ./.xcsh/types");
		const check = await run(["check"]);
		expect(check.stdout).toContain("2 hooks loaded, 0 failed");
	}, 90_000);
});

describe("xcsh-hooks types", () => {
	for (const cli of clis)
		test(`${cli.name}: --out writes the declarations, rewrites its own folder, refuses a foreign one`, async () => {
			const home = tempDir("xcsh-types-home-");
			const project = tempDir("xcsh-types-project-");
			const run = (args: string[]) => runArgv(cli.argv(args), { cwd: project, home, timeoutMs: 60_000 });
			const first = await run(["types", "--out", "decl"]);
			expect(first.stderr).toBe("");
			expect(first.code).toBe(0);
			expect(first.stdout).toMatch(/^Wrote \d+ declaration files \(\d+\.\d MiB\) to \.\/decl\n/);
			expect(first.stdout).toContain('"xcsh-hooks": ["./decl/xcsh-hooks/index.d.ts"]');
			for (const file of ["xcsh-hooks/index.d.ts", "xcsh-hooks/guards/index.d.ts", "@types/bun/index.d.ts", "@sinclair/typebox/index.d.ts"])
				expect(existsSync(join(project, "decl", file))).toBe(true);
			// Its own folder is rewritten whole: a stale file of an older version does not linger.
			writeFileSync(join(project, "decl", "xcsh-hooks", "stale.d.ts"), "export {};\n");
			expect((await run(["types", "--out", "decl"])).code).toBe(0);
			expect(existsSync(join(project, "decl", "xcsh-hooks", "stale.d.ts"))).toBe(false);
			// A folder it did not write is left alone.
			writeFileSync(join(project, "notes.md"), "mine\n");
			const refused = await run(["types", "--out", "."]);
			expect(refused.code).toBe(1);
			expect(refused.stderr).toContain("exists and was not written by xcsh-hooks types; nothing written");
			expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("mine\n");
			// Without --out: .xcsh/types and the hooks folder's tsconfig, which a second run keeps.
			const plain = await run(["types"]);
			expect(plain.stdout).toContain("Wrote ./.xcsh/hooks/tsconfig.json");
			writeFileSync(join(project, ".xcsh", "hooks", "tsconfig.json"), "{}\n");
			const again = await run(["types", "--json"]);
			expect(JSON.parse(again.stdout)).toMatchObject({ dir: join(project, ".xcsh", "types"), tsconfig: null });
			expect(readFileSync(join(project, ".xcsh", "hooks", "tsconfig.json"), "utf8")).toBe("{}\n");
		}, 90_000);
});

describe("a tsconfig mapping a served name to a project file", () => {
	for (const cli of clis)
		test(`${cli.name}: the executable's library runs, the mapped file never does`, async () => {
			const home = tempDir("xcsh-served-home-");
			const project = tempDir("xcsh-served-project-");
			const marker = join(project, "MARKER");
			const hooks = join(project, ".xcsh", "hooks");
			mkdirSync(hooks, { recursive: true });
			const names = ["xcsh-hooks", "xcsh-hooks/guards", "@sinclair/typebox"];
			writeFileSync(
				join(hooks, "tsconfig.json"),
				JSON.stringify({ compilerOptions: { paths: Object.fromEntries(names.map((n) => [n, ["./lookalike.ts"]])) } }),
			);
			writeFileSync(
				join(hooks, "lookalike.ts"),
				`require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nexport const defineHook = (f: unknown) => f;\nexport const Type = {};\n`,
			);
			writeFileSync(
				join(hooks, "g.ts"),
				'import { defineHook } from "xcsh-hooks";\nimport { Type } from "@sinclair/typebox";\nexport default defineHook((pi) => { pi.on("tool_call", () => ({ block: true, reason: `served ${typeof Type.String}` })); });\n',
			);
			const run = (args: string[]) => runArgv(cli.argv(args), { cwd: project, home, timeoutMs: 60_000 });
			expect((await run(["trust", "approve", join(hooks, "g.ts")])).code).toBe(0);
			const emitted = await run(["emit", "tool_call", "--data", JSON.stringify({ toolName: "bash", input: { command: "ls" } })]);
			expect(emitted.code).toBe(2);
			expect(emitted.stdout).toContain('"reason": "served function"');
			expect(existsSync(marker)).toBe(false);
		}, 90_000);
});

test("the names the tsconfig maps for editors are exactly the names the executable serves", () => {
	expect([...SERVED_NAMES].sort()).toEqual([...Object.keys(LIBRARY_MODULES), ...Object.keys(PACKAGE_MODULES)].sort());
});
