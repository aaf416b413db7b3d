/**
 * `install auggie`: what it writes into `.augment/settings.json`, byte for byte, and the pre-tool entry's
 * shell, which must turn every failure of ours into a blocked call, since Auggie runs the call when a hook
 * fails or times out (observed on Auggie 0.36.0).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { agentSpec, installBridge, uninstallBridge } from "../../src/install/index.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const CMD = "/opt/xcsh/xcsh-hooks";
const LINE = `${CMD} bridge auggie --installed-by=xcsh-hooks`;

/** A user's settings in their own formatting, with a hook of their own (what Auggie's docs show). */
const USER_SETTINGS = `{
  "model" : "sonnet4.5",
  "hooks": {
    "PreToolUse": [
      { "matcher": "launch-process", "hooks": [ { "type": "command", "command": "./mine.sh", "timeout": 5000 } ] }
    ]
  },
  "indexing":{"enabled":false}
}
`;

function settings(dir: string, text: string): string {
	const file = join(dir, ".augment", "settings.json");
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, text);
	return file;
}

describe("install auggie", () => {
	test("entries: Auggie's event names, a regular-expression matcher, timeouts in ms, the pre-tool entry ends the bridge at 54 s", async () => {
		const dir = tempDir();
		const result = await installBridge("auggie", { cwd: dir, command: CMD });
		expect(result.file).toBe(join(dir, ".augment", "settings.json"));
		const root = JSON.parse(readFileSync(result.file, "utf8"));
		expect(Object.keys(root.hooks)).toEqual(["PreToolUse", "PostToolUse", "PromptSubmit", "SessionStart", "SessionEnd", "Stop"]);
		expect(root.hooks.PreToolUse).toEqual([
			{ matcher: ".*", hooks: [{ type: "command", command: entryCommand(LINE, true, 54), timeout: 60000 }] },
		]);
		expect(root.hooks.PostToolUse).toEqual([
			{ matcher: ".*", hooks: [{ type: "command", command: entryCommand(LINE, false), timeout: 60000 }] },
		]);
		for (const event of ["PromptSubmit", "SessionStart", "SessionEnd", "Stop"])
			expect(root.hooks[event]).toEqual([{ hooks: [{ type: "command", command: entryCommand(LINE, false), timeout: 60000 }] }]);
		// The bridge answers by itself before the entry's deadline, which comes before Auggie's timeout.
		expect(agentSpec("auggie").entryDeadlineSeconds).toBe(54);
		expect(entryCommand(LINE, true, 54)).toContain("sleep 54");
	}, 60_000);

	test("it says hooks run only where the tenant's server enables them, and how failures are blocked", async () => {
		const result = await installBridge("auggie", { cwd: tempDir(), command: CMD, dryRun: true });
		const notes = result.notes.join("\n");
		expect(notes).toContain("enable_hooks");
		expect(notes).toContain("nothing is guarded");
		expect(notes).toContain("on PreToolUse a call that ends without an answer exits 2");
		expect(notes).toContain("still running after 54 s is ended and blocked");
	}, 60_000);

	test("the user's bytes stay as they are; uninstall gives back the exact file", async () => {
		const dir = tempDir();
		const file = settings(dir, USER_SETTINGS);
		await installBridge("auggie", { cwd: dir, command: CMD });
		const text = readFileSync(file, "utf8");
		expect(text.startsWith('{\n  "model" : "sonnet4.5",\n  "hooks": {\n    "PreToolUse": [\n')).toBe(true);
		expect(text).toContain('{ "matcher": "launch-process", "hooks": [ { "type": "command", "command": "./mine.sh", "timeout": 5000 } ] }');
		expect(text).toContain('"indexing":{"enabled":false}');
		const root = JSON.parse(text);
		expect(root.hooks.PreToolUse).toHaveLength(2);
		expect(root.hooks.PreToolUse[0].matcher).toBe("launch-process");
		await uninstallBridge("auggie", { cwd: dir });
		expect(readFileSync(file, "utf8")).toBe(USER_SETTINGS);
	}, 60_000);

	test("upgrade: an entry of an earlier install (no deadline, another program) is updated in place, nothing else changes", async () => {
		const dir = tempDir();
		const old = entryCommand("/old/xcsh-hooks bridge auggie --installed-by=xcsh-hooks", true);
		const before = `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "launch-process", "hooks": [ { "type": "command", "command": "./mine.sh" } ] },
      { "matcher": ".*", "hooks": [ { "type": "command", "command": ${JSON.stringify(old)}, "timeout": 60000 } ] }
    ]
  }
}
`;
		const file = settings(dir, before);
		const result = await installBridge("auggie", { cwd: dir, command: CMD });
		expect(result.changes.filter((c) => c.action === "update").map((c) => c.event)).toEqual(["PreToolUse"]);
		const root = JSON.parse(readFileSync(file, "utf8"));
		expect(root.hooks.PreToolUse).toHaveLength(2);
		expect(root.hooks.PreToolUse[1].hooks[0].command).toBe(entryCommand(LINE, true, 54));
		expect(readFileSync(file, "utf8")).toContain(
			'{ "matcher": "launch-process", "hooks": [ { "type": "command", "command": "./mine.sh" } ] },',
		);
		// A second install changes nothing; uninstall leaves the user's own hook.
		expect((await installBridge("auggie", { cwd: dir, command: CMD })).changes).toEqual([]);
		await uninstallBridge("auggie", { cwd: dir });
		expect(JSON.parse(readFileSync(file, "utf8")).hooks).toEqual({
			PreToolUse: [{ matcher: "launch-process", hooks: [{ type: "command", command: "./mine.sh" }] }],
		});
	}, 60_000);
});

/**
 * The pre-tool entry run as Auggie runs a command holding `;` or `$` (`bash -c <command>`), with fake
 * bridges: whatever happens to the bridge, the call is blocked (exit 2, or the bridge's own deny).
 */
describe("the pre-tool entry's shell with a deadline", () => {
	const PROGRAMS = {
		// Ignores SIGTERM (inherited through exec) and never answers: only SIGKILL ends it.
		"hangs.sh": "#!/bin/sh\ntrap '' TERM\nexec sleep 600\n",
		// Answers when told to stop, as the bridge does (its fail-closed deny on SIGTERM).
		"answers-on-term.sh":
			"#!/bin/sh\nsleep 600 </dev/null >/dev/null 2>&1 &\nc=$!\ntrap 'kill $c; echo DENY-ON-TERM; exit 0' TERM\nwait $c\n",
		// Answers at once, reading its stdin first.
		"quick.sh": "#!/bin/sh\ncat >/dev/null\necho QUICK-ANSWER\n",
		// Killed by a signal before answering.
		"killed.sh": "#!/bin/sh\nkill -KILL $$\n",
	};
	const run = async (program: string, deadline: number) => {
		const proc = Bun.spawn(["bash", "-c", entryCommand(`${program} bridge auggie --installed-by=xcsh-hooks`, true, deadline)], {
			stdin: new Blob([`{"hook_event_name":"PreToolUse"}`]),
			env: process.env, // the preload's temporary HOME
			stdout: "pipe",
			stderr: "pipe",
		});
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		return { stdout, stderr, code };
	};
	const dir = tempDir();
	writeFiles(dir, PROGRAMS);

	test("a bridge that hangs and ignores SIGTERM is killed at the deadline: exit 2 with the reason", async () => {
		const result = await run(join(dir, "hangs.sh"), 1);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("ended without an answer (exit status 137); the tool call is blocked (fail closed)");
	}, 60_000);

	test("a bridge still running at the deadline gets SIGTERM and its answer is passed on", async () => {
		const result = await run(join(dir, "answers-on-term.sh"), 1);
		expect(result).toEqual({ stdout: "DENY-ON-TERM\n", stderr: "", code: 0 });
	}, 60_000);

	test("a bridge that answers in time: its answer, and the timer leaves no process holding Auggie's pipes", async () => {
		// With a 600 s deadline the streams close only if the timer holds neither pipe (the test would time out).
		expect(await run(join(dir, "quick.sh"), 600)).toEqual({ stdout: "QUICK-ANSWER\n", stderr: "", code: 0 });
	}, 60_000);

	test("a killed bridge and a missing executable block", async () => {
		// A bridge that ends before the timer has set its trap leaves its `sleep` to run out alone: keep it short.
		const killed = await run(join(dir, "killed.sh"), 5);
		expect(killed.code).toBe(2);
		expect(killed.stderr).toContain("exit status 137");
		const missing = await run(join(dir, "no-such-xcsh-hooks"), 5);
		expect(missing.code).toBe(2);
		expect(missing.stderr).toContain("exit status 127");
	}, 60_000);
});
