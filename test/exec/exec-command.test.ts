import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_OUTPUT_BYTES, execCommand } from "../../src/exec/exec-command.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-exec-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Fields of `/proc/<pid>/stat` after the command name: [state, ppid, pgrp, session, ...]; undefined once reaped. */
function procStat(pid: number): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	} catch {
		return undefined;
	}
}

/** Whether a process runs: a zombie (dead, not yet reaped by an init that may never reap) does not. */
function running(pid: number): boolean {
	const state = procStat(pid)?.[0];
	return state !== undefined && state !== "Z" && state !== "X";
}

/** Waits (generously) until `pid` no longer runs; returns whether it stopped. */
async function stops(pid: number, withinMs = 3000): Promise<boolean> {
	const deadline = performance.now() + withinMs;
	while (running(pid)) {
		if (performance.now() > deadline) return false;
		await Bun.sleep(20);
	}
	return true;
}

/** SIGKILLs a test's leftover process, tolerating that it is gone. */
function cleanup(pid: number): void {
	try {
		process.kill(pid, "SIGKILL");
	} catch {}
}

describe("execCommand", () => {
	test("reports exit codes", async () => {
		expect((await execCommand("true", [], dir)).code).toBe(0);
		const failed = await execCommand("bash", ["-c", "exit 3"], dir);
		expect(failed).toEqual({ stdout: "", stderr: "", code: 3, killed: false });
	}, 60_000);

	test("captures stdout and stderr separately", async () => {
		const result = await execCommand("bash", ["-c", "echo out; echo err >&2; echo más"], dir);
		expect(result.stdout).toBe("out\nmás\n");
		expect(result.stderr).toBe("err\n");
		expect(result.truncated).toBeUndefined();
	}, 60_000);

	test("runs in cwd, and options.cwd overrides it", async () => {
		const other = mkdtempSync(join(dir, "other-"));
		expect((await execCommand("pwd", [], dir)).stdout).toBe(`${dir}\n`);
		expect((await execCommand("pwd", [], dir, { cwd: other })).stdout).toBe(`${other}\n`);
	}, 60_000);

	test("passes env", async () => {
		const result = await execCommand("bash", ["-c", 'echo "$XCSH_X"'], dir, {
			env: { ...process.env, XCSH_X: "hello there" },
		});
		expect(result.stdout).toBe("hello there\n");
	}, 60_000);

	test("keeps stdin closed", async () => {
		const result = await execCommand("cat", [], dir, { timeout: 5000 });
		expect(result).toMatchObject({ stdout: "", code: 0, killed: false });
	}, 60_000);

	test("does not interpolate arguments through a shell", async () => {
		const result = await execCommand("echo", ["$HOME; rm -rf x", "`id`"], dir);
		expect(result.stdout).toBe("$HOME; rm -rf x `id`\n");
	}, 60_000);

	test("timeout kills the child, keeping output written before the kill", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "echo before; exec sleep 30"], dir, { timeout: 300 });
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result).toEqual({ stdout: "before\n", stderr: "", code: 143, killed: true });
	}, 60_000);

	test("a child ignoring SIGTERM is SIGKILLed after the grace period", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", 'trap "" TERM; echo x; sleep 30'], dir, {
			timeout: 300,
			killGraceMs: 200,
		});
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result).toMatchObject({ stdout: "x\n", code: 137, killed: true });
	}, 60_000);

	test("aborting mid-run kills the child", async () => {
		const controller = new AbortController();
		const marker = join(dir, "abort-started");
		const script = `echo started; touch ${marker}; exec sleep 30`;
		const pending = execCommand("bash", ["-c", script], dir, { signal: controller.signal });
		// Abort once the child has proven it runs, not after a guessed delay.
		while (!(await Bun.file(marker).exists())) await Bun.sleep(10);
		controller.abort();
		const result = await pending;
		expect(result).toMatchObject({ stdout: "started\n", code: 143, killed: true });
	}, 60_000);

	test("an already aborted signal never starts the command", async () => {
		const marker = join(dir, "pre-aborted");
		const result = await execCommand("touch", [marker], dir, { signal: AbortSignal.abort() });
		expect(result).toEqual({ stdout: "", stderr: "", code: 143, killed: true });
		expect(await Bun.file(marker).exists()).toBe(false);
	}, 60_000);

	test("a normal exit is not reported as killed when a timeout was set", async () => {
		const result = await execCommand("echo", ["quick"], dir, { timeout: 5000, signal: new AbortController().signal });
		expect(result).toEqual({ stdout: "quick\n", stderr: "", code: 0, killed: false });
	}, 60_000);

	test("returns promptly when a grandchild holds the pipe open", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "sleep 30 & echo $!; echo hi"], dir);
		expect(performance.now() - started).toBeLessThan(5000);
		const [pid, hi] = result.stdout.split("\n");
		expect(hi).toBe("hi");
		expect(result).toMatchObject({ code: 0, killed: false });
		cleanup(Number(pid));
	}, 60_000);

	test("timeout returns promptly even when a grandchild holds the pipe open", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "sleep 30 & echo $!; sleep 30"], dir, { timeout: 300 });
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result).toMatchObject({ code: 143, killed: true });
		cleanup(Number(result.stdout.trim()));
	}, 60_000);

	test("a command with a timeout or signal gets its own process group; a plain one stays in ours", async () => {
		const ownGroup = procStat(process.pid)?.[2];
		const show = ["-c", 'echo "$$ $(cut -d" " -f5,6 /proc/$$/stat)"'];
		for (const options of [{ timeout: 5000 }, { signal: new AbortController().signal }]) {
			const [pid, pgrp, session] = (await execCommand("bash", show, dir, options)).stdout.trim().split(" ");
			expect(pgrp).toBe(pid);
			expect(session).toBe(pid);
		}
		const [, pgrp] = (await execCommand("bash", show, dir)).stdout.trim().split(" ");
		expect(pgrp).toBe(ownGroup);
	}, 60_000);

	test("a timeout kills the grandchildren too", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "sleep 31 & echo $!; sleep 5"], dir, { timeout: 300 });
		expect(performance.now() - started).toBeLessThan(4000);
		expect(result).toMatchObject({ code: 143, killed: true });
		const grandchild = Number(result.stdout.trim());
		expect(grandchild).toBeGreaterThan(0);
		try {
			expect(await stops(grandchild)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("aborting kills the grandchildren too", async () => {
		const controller = new AbortController();
		const marker = join(dir, "abort-group-started");
		const script = `sleep 31 & echo $!; touch ${marker}; sleep 30`;
		const pending = execCommand("bash", ["-c", script], dir, { signal: controller.signal });
		while (!(await Bun.file(marker).exists())) await Bun.sleep(10);
		controller.abort();
		const result = await pending;
		expect(result).toMatchObject({ code: 143, killed: true });
		const grandchild = Number(result.stdout.trim());
		try {
			expect(await stops(grandchild)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("a group ignoring SIGTERM is SIGKILLed as a whole", async () => {
		const script = 'trap "" TERM; sleep 31 & echo $!; sleep 30';
		const result = await execCommand("bash", ["-c", script], dir, { timeout: 300, killGraceMs: 200 });
		expect(result).toMatchObject({ code: 137, killed: true });
		const grandchild = Number(result.stdout.trim());
		try {
			expect(await stops(grandchild)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("a grandchild ignoring SIGTERM is SIGKILLed after the grace, without delaying the result", async () => {
		// The child dies from the SIGTERM at once; only its background job ignores it.
		const script = '(trap "" TERM; exec sleep 31) & echo $!; sleep 30';
		const started = performance.now();
		const result = await execCommand("bash", ["-c", script], dir, { timeout: 300, killGraceMs: 1500 });
		const elapsed = performance.now() - started;
		expect(result).toMatchObject({ code: 143, killed: true });
		const grandchild = Number(result.stdout.trim());
		try {
			expect(elapsed).toBeLessThan(1500);
			expect(await stops(grandchild, 1500 + 3000)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("the exit listener is registered only while a group may need killing", async () => {
		const before = process.listenerCount("exit");
		const pending = execCommand("bash", ["-c", "sleep 0.3"], dir, { timeout: 5000 });
		expect(process.listenerCount("exit")).toBe(before + 1);
		await pending;
		expect(process.listenerCount("exit")).toBe(before);
	}, 60_000);

	test("exiting the process kills a group that is still running", async () => {
		const pidFile = join(dir, "exit-pids");
		const script = join(dir, "exit-while-running.ts");
		writeFileSync(
			script,
			`import { execCommand } from ${JSON.stringify(join(import.meta.dir, "../../src/exec/exec-command.ts"))};
const pidFile = ${JSON.stringify(pidFile)};
void execCommand("bash", ["-c", "sleep 40 & echo $! $$ > " + pidFile + "; sleep 40"], ".", { timeout: 60_000 });
while (!(await Bun.file(pidFile).exists()) || !(await Bun.file(pidFile).text()).endsWith("\\n")) await Bun.sleep(10);
console.log((await Bun.file(pidFile).text()).trim());
process.exit(0);
`,
		);
		const runner = Bun.spawn([process.execPath, script], { cwd: dir, env: process.env, stdout: "pipe", stderr: "pipe" });
		const [stdout, stderr, code] = await Promise.all([
			new Response(runner.stdout).text(),
			new Response(runner.stderr).text(),
			runner.exited,
		]);
		expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
		const [grandchild, child] = stdout.trim().split(" ").map(Number) as [number, number];
		expect(grandchild).toBeGreaterThan(0);
		try {
			expect(await stops(grandchild)).toBe(true);
			expect(await stops(child)).toBe(true);
		} finally {
			cleanup(grandchild);
			cleanup(child);
		}
	}, 60_000);

	test("a killed group's lingering members neither keep the process alive nor outlive it", async () => {
		const script = join(dir, "exit-after-kill.ts");
		writeFileSync(
			script,
			`import { execCommand } from ${JSON.stringify(join(import.meta.dir, "../../src/exec/exec-command.ts"))};
const cmd = '(trap "" TERM; exec sleep 40) & echo $!; sleep 40';
const result = await execCommand("bash", ["-c", cmd], ".", { timeout: 200, killGraceMs: 60_000 });
console.log(result.stdout.trim(), result.code);
`,
		);
		const started = performance.now();
		const runner = Bun.spawn([process.execPath, script], { cwd: dir, env: process.env, stdout: "pipe", stderr: "pipe" });
		const [stdout, stderr, code] = await Promise.all([
			new Response(runner.stdout).text(),
			new Response(runner.stderr).text(),
			runner.exited,
		]);
		expect(performance.now() - started).toBeLessThan(20_000);
		expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
		const [grandchild, childCode] = stdout.trim().split(" ").map(Number) as [number, number];
		expect(childCode).toBe(143);
		try {
			expect(await stops(grandchild)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("a grandchild of a command that exits by itself is left running", async () => {
		const result = await execCommand("bash", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], dir, { timeout: 5000 });
		const grandchild = Number(result.stdout.trim());
		try {
			expect(result).toMatchObject({ code: 0, killed: false });
			await Bun.sleep(100);
			expect(running(grandchild)).toBe(true);
		} finally {
			cleanup(grandchild);
		}
	}, 60_000);

	test("caps stored output per stream but lets the child finish", async () => {
		const marker = join(dir, "cap-done");
		const script = `head -c 1048576 /dev/zero | tr '\\0' a; head -c 4096 /dev/zero | tr '\\0' e >&2; touch ${marker}`;
		const result = await execCommand("bash", ["-c", script], dir, { maxOutputBytes: 1024 });
		expect(result.stdout).toBe("a".repeat(1024));
		expect(result.stderr).toBe("e".repeat(1024));
		expect(result).toMatchObject({ code: 0, killed: false, truncated: true });
		expect(await Bun.file(marker).exists()).toBe(true);
	}, 60_000);

	test("output exactly at the cap is not truncated", async () => {
		const result = await execCommand("printf", ["abcd"], dir, { maxOutputBytes: 4 });
		expect(result.stdout).toBe("abcd");
		expect(result.truncated).toBeUndefined();
		expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(50 * 1024 * 1024);
	}, 60_000);

	test("a missing executable rejects naming it", async () => {
		await expect(execCommand("nosuchcmd-xcsh", [], dir)).rejects.toThrow("Command not found: nosuchcmd-xcsh");
		await expect(execCommand(join(dir, "nope"), [], dir)).rejects.toThrow(`Command not found: ${join(dir, "nope")}`);
	}, 60_000);

	test("a file without execute permission rejects naming it", async () => {
		const file = join(dir, "not-executable");
		writeFileSync(file, "echo hi\n");
		await expect(execCommand(file, [], dir)).rejects.toThrow(`Command is not executable: ${file}`);
	}, 60_000);

	test("a missing or non-directory cwd rejects naming it", async () => {
		const missing = join(dir, "missing-dir");
		await expect(execCommand("true", [], missing)).rejects.toThrow(`Working directory does not exist: ${missing}`);
		await expect(execCommand("true", [], dir, { cwd: missing })).rejects.toThrow(missing);
		const file = join(dir, "a-file");
		writeFileSync(file, "");
		await expect(execCommand("true", [], file)).rejects.toThrow(`Working directory is not a directory: ${file}`);
	}, 60_000);
});
