import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_OUTPUT_BYTES, execCommand } from "../../src/exec/exec-command.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "xcsh-exec-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether a process id is still alive (signal 0 only checks). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

describe("execCommand", () => {
	test("reports exit codes", async () => {
		expect((await execCommand("true", [], dir)).code).toBe(0);
		const failed = await execCommand("bash", ["-c", "exit 3"], dir);
		expect(failed).toEqual({ stdout: "", stderr: "", code: 3, killed: false });
	});

	test("captures stdout and stderr separately", async () => {
		const result = await execCommand("bash", ["-c", "echo out; echo err >&2; echo más"], dir);
		expect(result.stdout).toBe("out\nmás\n");
		expect(result.stderr).toBe("err\n");
		expect(result.truncated).toBeUndefined();
	});

	test("runs in cwd, and options.cwd overrides it", async () => {
		const other = mkdtempSync(join(dir, "other-"));
		expect((await execCommand("pwd", [], dir)).stdout).toBe(`${dir}\n`);
		expect((await execCommand("pwd", [], dir, { cwd: other })).stdout).toBe(`${other}\n`);
	});

	test("passes env", async () => {
		const result = await execCommand("bash", ["-c", 'echo "$XCSH_X"'], dir, {
			env: { ...process.env, XCSH_X: "hello there" },
		});
		expect(result.stdout).toBe("hello there\n");
	});

	test("keeps stdin closed", async () => {
		const result = await execCommand("cat", [], dir, { timeout: 5000 });
		expect(result).toMatchObject({ stdout: "", code: 0, killed: false });
	});

	test("does not interpolate arguments through a shell", async () => {
		const result = await execCommand("echo", ["$HOME; rm -rf x", "`id`"], dir);
		expect(result.stdout).toBe("$HOME; rm -rf x `id`\n");
	});

	test("timeout kills the child, keeping output written before the kill", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "echo before; exec sleep 30"], dir, { timeout: 300 });
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result).toEqual({ stdout: "before\n", stderr: "", code: 143, killed: true });
	});

	test("a child ignoring SIGTERM is SIGKILLed after the grace period", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", 'trap "" TERM; echo x; sleep 30'], dir, {
			timeout: 300,
			killGraceMs: 200,
		});
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result).toMatchObject({ stdout: "x\n", code: 137, killed: true });
	});

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
	});

	test("an already aborted signal never starts the command", async () => {
		const marker = join(dir, "pre-aborted");
		const result = await execCommand("touch", [marker], dir, { signal: AbortSignal.abort() });
		expect(result).toEqual({ stdout: "", stderr: "", code: 143, killed: true });
		expect(await Bun.file(marker).exists()).toBe(false);
	});

	test("a normal exit is not reported as killed when a timeout was set", async () => {
		const result = await execCommand("echo", ["quick"], dir, { timeout: 5000, signal: new AbortController().signal });
		expect(result).toEqual({ stdout: "quick\n", stderr: "", code: 0, killed: false });
	});

	test("returns promptly when a grandchild holds the pipe open", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "sleep 30 & echo $!; echo hi"], dir);
		expect(performance.now() - started).toBeLessThan(5000);
		const [pid, hi] = result.stdout.split("\n");
		expect(hi).toBe("hi");
		expect(result).toMatchObject({ code: 0, killed: false });
		process.kill(Number(pid), "SIGKILL");
	});

	test("timeout returns promptly even when a grandchild holds the pipe open", async () => {
		const started = performance.now();
		const result = await execCommand("bash", ["-c", "sleep 30 & echo $!; sleep 30"], dir, { timeout: 300 });
		expect(performance.now() - started).toBeLessThan(5000);
		expect(result.killed).toBe(true);
		const pid = Number(result.stdout.trim());
		expect(alive(pid)).toBe(true);
		process.kill(pid, "SIGKILL");
	});

	test("caps stored output per stream but lets the child finish", async () => {
		const marker = join(dir, "cap-done");
		const script = `head -c 1048576 /dev/zero | tr '\\0' a; head -c 4096 /dev/zero | tr '\\0' e >&2; touch ${marker}`;
		const result = await execCommand("bash", ["-c", script], dir, { maxOutputBytes: 1024 });
		expect(result.stdout).toBe("a".repeat(1024));
		expect(result.stderr).toBe("e".repeat(1024));
		expect(result).toMatchObject({ code: 0, killed: false, truncated: true });
		expect(await Bun.file(marker).exists()).toBe(true);
	});

	test("output exactly at the cap is not truncated", async () => {
		const result = await execCommand("printf", ["abcd"], dir, { maxOutputBytes: 4 });
		expect(result.stdout).toBe("abcd");
		expect(result.truncated).toBeUndefined();
		expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(50 * 1024 * 1024);
	});

	test("a missing executable rejects naming it", async () => {
		await expect(execCommand("nosuchcmd-xcsh", [], dir)).rejects.toThrow("Command not found: nosuchcmd-xcsh");
		await expect(execCommand(join(dir, "nope"), [], dir)).rejects.toThrow(`Command not found: ${join(dir, "nope")}`);
	});

	test("a file without execute permission rejects naming it", async () => {
		const file = join(dir, "not-executable");
		writeFileSync(file, "echo hi\n");
		await expect(execCommand(file, [], dir)).rejects.toThrow(`Command is not executable: ${file}`);
	});

	test("a missing or non-directory cwd rejects naming it", async () => {
		const missing = join(dir, "missing-dir");
		await expect(execCommand("true", [], missing)).rejects.toThrow(`Working directory does not exist: ${missing}`);
		await expect(execCommand("true", [], dir, { cwd: missing })).rejects.toThrow(missing);
		const file = join(dir, "a-file");
		writeFileSync(file, "");
		await expect(execCommand("true", [], file)).rejects.toThrow(`Working directory is not a directory: ${file}`);
	});
});
