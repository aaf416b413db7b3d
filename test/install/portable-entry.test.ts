/**
 * A committed agent config works on a teammate's machine (issue 37, item 4), and `install` says what
 * happens next (item 5). Through both CLIs, real files, the entries run by /bin/sh as an agent runs them:
 * - `install --project` writes `xcsh-hooks` (found on PATH), never the installer's absolute path; user
 *   entries keep the absolute path;
 * - without xcsh-hooks on PATH, a guarded event's entry blocks (exit 2) saying it is not on PATH and how
 *   to fix it, and another event's entry says the same (exit 127) instead of a bare "not found";
 * - with it on PATH (another HOME: a teammate), the same entry answers;
 * - `install` prints the project root, that no hook exists yet (and how to make one), that a server
 *   starts by itself (and how to turn it off), that Claude Code reads project config only from the
 *   folder it was started in, and what to commit; `install --json` has the same as `next`.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, pathWith, runArgv, runCli, useClis } from "../faults/_cli.ts";
import { privateHome, tempDir } from "../faults/_fixtures.ts";

const clis = useClis();
const TIMEOUT_MS = 90_000;

const payload = (dir: string, event: string) =>
	JSON.stringify({
		session_id: "s1",
		transcript_path: join(dir, "t.jsonl"),
		cwd: dir,
		hook_event_name: event,
		...(event === "PreToolUse" ? { tool_name: "Bash", tool_input: { command: "ls" } } : {}),
	});

/** The command of our entry for `event` in a Claude settings file. */
function entryOf(file: string, event: string): string {
	const settings = JSON.parse(readFileSync(file, "utf8"));
	return settings.hooks[event][0].hooks[0].command as string;
}

describe.each(clis.map((cli) => [cli.name, cli] as const))("%s", (_name, cli: Cli) => {
	test(
		"install --project names xcsh-hooks on PATH: a clear block without it, an answer with it; install says what happens next",
		async () => {
			const dir = tempDir("xcsh-portable-");
			mkdirSync(join(dir, ".git"));
			const home = privateHome();
			// The tests' spawns get XCSH_HOOKS_SERVER=off unless they say otherwise: here, as on a user's machine, it is on.
			const on = { XCSH_HOOKS_SERVER: "" };
			const install = await runCli(cli, ["install", "claude"], { cwd: dir, home, env: on, timeoutMs: 60_000 });
			expect(install.code).toBe(0);
			const file = join(dir, ".claude", "settings.json");
			const text = readFileSync(file, "utf8");
			const program = cli.argv([])[0] as string;
			expect(text).not.toContain(program);
			expect(entryOf(file, "PreToolUse")).toEndWith("' xcsh-hooks xcsh-hooks bridge claude --installed-by=xcsh-hooks");

			// What happens next.
			const out = install.stdout;
			expect(out).toContain(`The project root is ${dir}`);
			expect(out).toContain("No hook exists yet: make one with xcsh-hooks init guard --template guard");
			expect(out).toContain("starts a background hook server by itself");
			expect(out).toContain("XCSH_HOOKS_SERVER=off");
			expect(out).toMatch(/Claude Code reads a project's config only from the folder it was\s+started in/);
			expect(out).toContain("Commit .claude/settings.json");
			const json = JSON.parse((await runCli(cli, ["install", "claude", "--json"], { cwd: dir, home, env: on, timeoutMs: 60_000 })).stdout);
			expect(json.next).toEqual({
				projectRoot: dir,
				hooks: 0,
				notApproved: 0,
				server: "starts",
				startInRoot: true,
				commit: [file],
			});

			// A teammate's machine without xcsh-hooks on PATH: a reason, not a bare "not found".
			const teammate = privateHome();
			const bare = { PATH: "/usr/bin:/bin", XCSH_HOOKS_SERVER: "off" };
			const run = (event: string, env: Record<string, string>) =>
				runArgv(["/bin/sh", "-c", entryOf(file, event)], { cwd: dir, home: teammate, stdin: payload(dir, event), env, timeoutMs: 30_000 });
			const guard = await run("PreToolUse", bare);
			expect(guard.code).toBe(2);
			expect(guard.stderr).toContain("xcsh-hooks: xcsh-hooks is not on the PATH this agent gives its hooks (/usr/bin:/bin)");
			expect(guard.stderr).toContain("install xcsh-hooks so that it is on that PATH");
			expect(guard.stderr).toContain("the tool call is blocked (fail closed)");
			const stop = await run("Stop", bare);
			expect(stop.code).toBe(127);
			expect(stop.stderr).toContain("xcsh-hooks is not on the PATH this agent gives its hooks");

			// With xcsh-hooks on PATH: the same committed entry answers.
			const found = await run("PreToolUse", { PATH: pathWith(cli), XCSH_HOOKS_SERVER: "off" });
			expect(found.stderr).not.toContain("not on the PATH");
			expect(found.code).toBe(0);
		},
		TIMEOUT_MS,
	);

	test(
		"user-level entries keep the absolute path of the program that installed them",
		async () => {
			const dir = tempDir("xcsh-portable-user-");
			const home = privateHome();
			const install = await runCli(cli, ["install", "claude", "--user", "--json"], { cwd: dir, home, timeoutMs: 60_000 });
			expect(install.code).toBe(0);
			const file = join(home, ".claude", "settings.json");
			expect(entryOf(file, "PreToolUse")).toContain(`' xcsh-hooks ${cli.argv([])[0]}`);
			expect(JSON.parse(install.stdout).next).toMatchObject({ commit: [], server: "off" });
			expect(JSON.parse(install.stdout).next.projectRoot).toBeUndefined();
		},
		TIMEOUT_MS,
	);
});
