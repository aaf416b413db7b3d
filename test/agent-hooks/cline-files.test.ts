/**
 * Cline's own hook files (one executable per event in `.clinerules/hooks/` and `~/.cline/hooks/`) run as
 * hooks of ours, with Cline's payload and answers: through the library (in-process) and through
 * `xcsh-hooks emit` (a real process, a private HOME). Our own installed files are never taken for hooks.
 */
import { expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installBridge } from "../../src/install/index.ts";
import { library, setup, writeFiles } from "./_fixtures.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

/** A hook file that logs its payload to `log` and prints `answer`. */
const hookFile = (log: string, answer: string) => `#!/bin/sh\ncat > '${log}'\nprintf '%s' '${answer}'\n`;

test("a user-level PreToolUse file that cancels blocks the call, with Cline's own payload on its stdin", async () => {
	const { dir, home } = setup();
	const log = join(home, "payload.json");
	writeFiles(home, { ".cline/hooks/PreToolUse": hookFile(log, '{"cancel":true,"errorMessage":"cline says no"}') }, [
		".cline/hooks/PreToolUse",
	]);
	const { loaded, run } = await library(dir, home);
	expect(loaded.errors).toEqual([]);
	expect(loaded.hooks.map((hook) => hook.path)).toEqual([`${join(home, ".cline", "hooks", "PreToolUse")}#PreToolUse`]);
	await expect(run("rm -rf build")).rejects.toThrow("cline says no");
	const payload = JSON.parse(readFileSync(log, "utf8"));
	expect(payload).toMatchObject({
		hookName: "tool_call",
		workspaceRoots: [dir],
		tool_call: { name: "run_commands", input: { commands: ["rm -rf build"] } },
		preToolUse: { toolName: "run_commands", parameters: { commands: '["rm -rf build"]' } },
	});
	expect(typeof payload.taskId).toBe("string");
}, 60_000);

test("overrideInput rewrites the call; contextModification reaches the model after the output", async () => {
	const { dir, home } = setup();
	writeFiles(
		home,
		{
			".cline/hooks/PreToolUse": hookFile("/dev/null", '{"overrideInput":{"commands":["echo rewritten"]}}'),
			".cline/hooks/PostToolUse": hookFile("/dev/null", '{"contextModification":"checked by cline"}'),
		},
		[".cline/hooks/PreToolUse", ".cline/hooks/PostToolUse"],
	);
	const { run, messages } = await library(dir, home);
	const result = await run("echo original");
	expect(JSON.stringify(result.content)).toContain("rewritten");
	expect(JSON.stringify(result.content)).not.toContain("original");
	expect(JSON.stringify(messages)).toContain("checked by cline");
}, 60_000);

test("a crash or garbage on stdout blocks the call (Cline would let it run); a file that cannot run is a warning", async () => {
	const { dir, home } = setup();
	writeFiles(home, { ".cline/hooks/PreToolUse": "#!/bin/sh\necho '{not json'\n", ".cline/hooks/PostToolUse": "#!/bin/sh\nexit 0\n" }, [
		".cline/hooks/PreToolUse",
	]);
	chmodSync(join(home, ".cline", "hooks", "PostToolUse"), 0o644);
	const { loaded, run } = await library(dir, home);
	await expect(run("ls")).rejects.toThrow();
	const warnings = (loaded as { warnings?: string[] }).warnings ?? [];
	expect(warnings.join("\n")).toContain("PostToolUse: not an executable regular file");
}, 60_000);

test("the files install writes are ours: not hooks, so a bridge never calls itself", async () => {
	const { dir, home } = setup();
	await installBridge("cline", { scope: "user", home, command: "/opt/xcsh/xcsh-hooks" });
	const { loaded } = await library(dir, home);
	expect(loaded.hooks).toEqual([]);
}, 60_000);

test("xcsh-hooks emit: a project hook file runs only once approved, then blocks as Cline's answer says", async () => {
	const { dir, home } = setup();
	writeFiles(dir, { ".clinerules/hooks/PreToolUse": hookFile("/dev/null", '{"cancel":true,"errorMessage":"project says no"}') }, [
		".clinerules/hooks/PreToolUse",
	]);
	const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" };
	const emit = async () => {
		const proc = Bun.spawn(
			[process.execPath, CLI, "emit", "tool_call", "--data", '{"toolName":"bash","input":{"command":"rm -rf build"}}'],
			{
				cwd: dir,
				env,
				stdout: "pipe",
				stderr: "pipe",
				timeout: 30_000,
			},
		);
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		return { stdout, stderr, code };
	};
	const before = await emit();
	expect(before.code).toBe(0);
	expect(before.stderr).toContain("trust approve");
	const approve = Bun.spawnSync([process.execPath, CLI, "trust", "approve", join(dir, ".clinerules", "hooks", "PreToolUse")], {
		cwd: dir,
		env,
	});
	expect(approve.exitCode).toBe(0);
	const after = await emit();
	expect(after.code).toBe(2);
	expect(after.stdout).toContain("project says no");
}, 60_000);
