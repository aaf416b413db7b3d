import { describe, expect, test } from "bun:test";
import { readFileSync, realpathSync } from "node:fs";
import { BASH_OUTPUT_LIMIT_BYTES, createBashTool } from "../../src/tools/bash.ts";
import { tempDir } from "../_helpers.ts";

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? "").join("");

/** Whether a process runs: gone from /proc, or a zombie (never reaped by some inits), does not. */
function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
	} catch {
		return false;
	}
}

/** Waits (generously) until `pid` no longer runs; SIGKILLs it anyway so a failing test leaves nothing behind. */
async function stops(pid: number, withinMs = 3000): Promise<boolean> {
	const deadline = performance.now() + withinMs;
	try {
		while (running(pid)) {
			if (performance.now() > deadline) return false;
			await Bun.sleep(20);
		}
		return true;
	} finally {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
}

/** The pid a killed command echoed first, read from the error's partial output. */
function echoedPid(error: unknown): number {
	const match = /killed:\n(\d+)\n/.exec((error as Error).message);
	expect(match).not.toBeNull();
	return Number(match?.[1]);
}

describe("bash tool", () => {
	test("runs in cwd and returns stdout with exit code 0 details", async () => {
		const dir = tempDir();
		const result = await createBashTool(dir).execute("1", { command: "pwd" });
		expect(realpathSync(text(result).trim())).toBe(realpathSync(dir));
		expect(result.details).toEqual({ exitCode: 0, killed: false });
	}, 60_000);

	test("shows stdout, then stderr, then the non-zero exit code, without throwing", async () => {
		const result = await createBashTool(tempDir()).execute("1", { command: "echo out; echo err >&2; exit 3" });
		expect(text(result)).toBe("out\nerr\nexit code 3");
		expect(result.details).toEqual({ exitCode: 3, killed: false });
	}, 60_000);

	test("stderr alone and an exit code on its own line even without a trailing newline", async () => {
		const tool = createBashTool(tempDir());
		expect(text(await tool.execute("1", { command: "printf oops >&2; exit 1" }))).toBe("oops\nexit code 1");
		expect(text(await tool.execute("1", { command: "exit 7" }))).toBe("exit code 7");
		expect(text(await tool.execute("1", { command: "true" }))).toBe("(no output)");
	}, 60_000);

	test("stdin is closed", async () => {
		const result = await createBashTool(tempDir()).execute("1", { command: "cat; echo done" });
		expect(text(result)).toBe("done\n");
	}, 60_000);

	test("a timeout kills the command and throws with the partial output", async () => {
		const started = performance.now();
		const run = createBashTool(tempDir()).execute("1", { command: "echo before; exec sleep 10", timeout: 0.3 });
		await expect(run).rejects.toThrow(/Command timed out after 0\.3 s[\s\S]*before/);
		expect(performance.now() - started).toBeLessThan(5000);
	}, 60_000);

	test("the default timeout comes from options.timeoutMs", async () => {
		const run = createBashTool(tempDir(), { timeoutMs: 200 }).execute("1", { command: "exec sleep 10" });
		await expect(run).rejects.toThrow("Command timed out after 0.2 s (no output)");
	}, 60_000);

	test("aborting the signal kills the command and throws 'aborted'", async () => {
		const controller = new AbortController();
		const run = createBashTool(tempDir()).execute("1", { command: "echo started; exec sleep 10" }, controller.signal);
		setTimeout(() => controller.abort(), 200);
		await expect(run).rejects.toThrow(/Command aborted[\s\S]*started/);
	}, 60_000);

	test("a timeout also kills the command's background jobs", async () => {
		const started = performance.now();
		const run = createBashTool(tempDir()).execute("1", { command: "sleep 31 & echo $!; sleep 5", timeout: 0.3 });
		const error = await run.catch((e: unknown) => e);
		expect(performance.now() - started).toBeLessThan(4000);
		expect((error as Error).message).toStartWith("Command timed out after 0.3 s. Output before it was killed:\n");
		expect(await stops(echoedPid(error))).toBe(true);
	}, 60_000);

	test("aborting also kills the command's background jobs", async () => {
		const dir = tempDir();
		const controller = new AbortController();
		const command = "sleep 31 & echo $!; touch started; sleep 30";
		const run = createBashTool(dir).execute("1", { command }, controller.signal);
		while (!(await Bun.file(`${dir}/started`).exists())) await Bun.sleep(10);
		controller.abort();
		const error = await run.catch((e: unknown) => e);
		expect((error as Error).message).toStartWith("Command aborted. Output before it was killed:\n");
		expect(await stops(echoedPid(error))).toBe(true);
	}, 60_000);

	test("an already aborted signal never runs the command", async () => {
		const dir = tempDir();
		const controller = new AbortController();
		controller.abort();
		const run = createBashTool(dir).execute("1", { command: "touch ran" }, controller.signal);
		await expect(run).rejects.toThrow("bash aborted");
		expect(await Bun.file(`${dir}/ran`).exists()).toBe(false);
	}, 60_000);

	test("long output is cut to its last 50 KB with a note", async () => {
		const result = await createBashTool(tempDir()).execute("1", { command: "seq 1 100000; exit 2" });
		const out = text(result);
		expect(out).toStartWith("[Output truncated: showing the last ");
		expect(out).toEndWith("99999\n100000\nexit code 2");
		expect(Buffer.byteLength(out)).toBeLessThan(BASH_OUTPUT_LIMIT_BYTES + 200);
		expect(out.split("\n")[1]).toMatch(/^\d+$/); // starts on a whole line
		expect(result.details).toEqual({ exitCode: 2, killed: false, truncated: true });
	}, 60_000);

	test("invalid input is rejected naming the field, before anything runs", async () => {
		const tool = createBashTool(tempDir());
		await expect(tool.execute("1", { command: 1 } as never)).rejects.toThrow("bash input.command: expected string (got 1)");
		await expect(tool.execute("1", { command: "" })).rejects.toThrow("bash input.command");
		await expect(tool.execute("1", { command: "ls", timeout: 0 })).rejects.toThrow("bash input.timeout");
		await expect(tool.execute("1", { command: "ls", timout: 5 } as never)).rejects.toThrow("bash input.timout: unexpected property");
		await expect(tool.execute("1", undefined as never)).rejects.toThrow("bash input: expected an object");
	}, 60_000);

	test("a missing working directory is an error naming it", async () => {
		const dir = `${tempDir()}/gone`;
		await expect(createBashTool(dir).execute("1", { command: "ls" })).rejects.toThrow(dir);
	}, 60_000);
});

describe("bash tool edge cases", () => {
	test("the partial output in a timeout error is truncated too", async () => {
		const run = createBashTool(tempDir()).execute("1", { command: "seq 1 100000; exec sleep 10", timeout: 0.5 });
		const error = (await run.catch((e: unknown) => e)) as Error;
		expect(error.message).toStartWith("Command timed out after 0.5 s. Output before it was killed:\n[Output truncated");
		expect(error.message).toEndWith("100000\n");
		expect(Buffer.byteLength(error.message)).toBeLessThan(BASH_OUTPUT_LIMIT_BYTES + 300);
	}, 60_000);

	test("falls back to /bin/sh when bash is not on PATH", async () => {
		const saved = process.env.PATH;
		process.env.PATH = tempDir(); // an empty directory: no bash to find
		let tool: ReturnType<typeof createBashTool>;
		try {
			tool = createBashTool(tempDir());
		} finally {
			process.env.PATH = saved;
		}
		const result = await tool.execute("1", { command: 'echo "$0"' });
		expect(text(result)).toBe("/bin/sh\n");
	}, 60_000);
});
