/**
 * A served call never inherits another call's damage (docs/security.md). The hook server a
 * bridge call starts by itself answers every project's calls in one process. Project A's approved hook
 * replaces a built-in (`structuredClone`, `Map.prototype.get`) or leaves a global behind; project B's
 * approved guard denies `rm -rf`. A's call is denied naming A's hook (or, for a mere global, answered as
 * decided), the server gives up its socket and exits, and B's `rm -rf` is still denied. Through the
 * compiled executable; every server a test causes is killed by its pid afterwards.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, runArgv, runCli, useClis } from "./_cli.ts";
import { tempDir, writeFiles } from "./_fixtures.ts";
import { decisionOf, preToolUse } from "./_socket.ts";

const compiled = useClis()[0] as Cli;

const GUARD = `export default (pi) => pi.on("tool_call", (e) =>
	String(e.input.command).includes("rm -rf") ? { block: true, reason: "B-GUARD: no rm -rf" } : undefined);
`;

const patcher = (body: string) => `export default (pi) => pi.on("tool_call", () => { ${body} });\n`;

function serverPids(home: string): number[] {
	const log = join(home, ".xcsh", "agent", "server.log");
	if (!existsSync(log)) return [];
	return [...readFileSync(log, "utf8").matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]));
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
	for (let waited = 0; waited < ms; waited += 100) {
		const value = await probe();
		if (value !== undefined) return value;
		await Bun.sleep(100);
	}
	throw new Error(`timed out waiting for ${what}`);
}

/** Ends every server `home`'s log names (the tests run concurrently: each cleans up its own). */
async function stopServers(home: string): Promise<void> {
	for (const pid of serverPids(home)) {
		if (alive(pid)) process.kill(pid, "SIGKILL");
		await until(`server ${pid} to end`, () => (alive(pid) ? undefined : true), 10_000);
	}
}

/** Runs a test body on a fresh setup, then stops the servers its calls started. */
async function withSetup(patch: string, body: (s: Awaited<ReturnType<typeof setup>>) => Promise<void>): Promise<void> {
	const s = await setup(patch);
	try {
		await body(s);
	} finally {
		await stopServers(s.home);
	}
}

/** Whether the process `pid` ended within 20 s (polled; no timed assertion). */
async function exitedWithin(pid: number): Promise<boolean> {
	return until(`server ${pid} to exit`, () => (alive(pid) ? undefined : true), 20_000).catch(() => false);
}

/** A call that ran on its own starts a server for the next ones: waited for (bounded), so the cleanup finds its pid in the log. */
async function settled(home: string, cwd: string): Promise<void> {
	await until("the next server to start", async () => ((await status(home, cwd)).running ? true : undefined), 20_000).catch(
		() => undefined,
	);
}

/** One HOME (the server on, as by default) and two projects, each with one approved hook. */
async function setup(patch: string) {
	const root = tempDir("xcsh-faults-served-damage-");
	const home = join(root, "home");
	const a = join(root, "project-a");
	const b = join(root, "project-b");
	writeFiles(home, { ".xcsh/agent/settings.json": "{}" });
	writeFiles(a, { ".xcsh/hooks/patcher.ts": patcher(patch) });
	writeFiles(b, { ".xcsh/hooks/guard.ts": GUARD });
	for (const hook of [join(a, ".xcsh/hooks/patcher.ts"), join(b, ".xcsh/hooks/guard.ts")]) {
		const approved = await runCli(compiled, ["trust", "approve", hook], { cwd: root, home, timeoutMs: 30_000 });
		expect(approved.code, approved.stderr).toBe(0);
	}
	return { home, a, b, patcherPath: join(a, ".xcsh", "hooks", "patcher.ts") };
}

const bridge = (home: string, project: string, command: string) =>
	runArgv(compiled.argv(["bridge", "claude"]), {
		cwd: project,
		home,
		stdin: preToolUse("claude", project, command),
		env: { XCSH_HOOKS_PROFILE: "1", XCSH_HOOKS_SERVER: "" },
		timeoutMs: 30_000,
	});

async function status(home: string, cwd: string): Promise<{ running: boolean; pid?: number; served?: number }> {
	const run = await runArgv(compiled.argv(["serve", "--status", "--json"]), { cwd, home });
	return JSON.parse(run.stdout);
}

/** B's first call runs on its own and starts the server; resolves the server's pid once it answers. */
async function startedServer(home: string, b: string): Promise<number> {
	const first = await bridge(home, b, "ls -la");
	expect(decisionOf(first.stdout)?.decision, first.stderr).toBeUndefined();
	const up = await until("the server to start", async () => {
		const now = await status(home, b);
		return now.running ? now : undefined;
	});
	// The next call of B is served there (and allowed), so the server is the one answering.
	const served = await bridge(home, b, "ls -la");
	expect(served.stderr).toContain('["forwarded",');
	return up.pid as number;
}

describe("the auto-started server (compiled executable)", () => {
	for (const [name, patch] of [
		["structuredClone", "globalThis.structuredClone = () => ({});"],
		["Map.prototype.get", "Map.prototype.get = () => undefined;"],
	] as const)
		test.concurrent(
			`project A's hook replaces ${name}: A's call is denied naming it, the server exits, B's rm -rf is denied`,
			() =>
				withSetup(patch, async ({ home, a, b, patcherPath }) => {
					const pid = await startedServer(home, b);
					const damaged = await bridge(home, a, "ls -la");
					const exited = await exitedWithin(pid);
					// Whatever became of the server, B's guard holds.
					const rm = await bridge(home, b, "rm -rf ./build");
					await settled(home, b);
					expect(decisionOf(rm.stdout)?.decision, rm.stdout + rm.stderr).toBe("deny");
					expect(decisionOf(rm.stdout)?.reason).toContain("B-GUARD: no rm -rf");
					expect(damaged.stderr).toContain('["forwarded",');
					const answer = decisionOf(damaged.stdout);
					expect(answer?.decision, damaged.stdout + damaged.stderr).toBe("deny");
					expect(answer?.reason).toContain(patcherPath);
					expect(exited).toBe(true);
					expect(readFileSync(join(home, ".xcsh", "agent", "server.log"), "utf8")).toContain(patcherPath);
				}),
			120_000,
		);

	test.concurrent(
		"project A's hook leaves a global and a variable behind: the server exits after that call; B's calls run elsewhere and its rm -rf is denied",
		() =>
			withSetup('globalThis.leftBehind = { allow: true }; process.env.XCSH_LEFT = "1";', async ({ home, a, b }) => {
				const pid = await startedServer(home, b);
				const leaving = await bridge(home, a, "ls -la");
				expect(leaving.stderr).toContain('["forwarded",');
				const exited = await exitedWithin(pid);
				const rm = await bridge(home, b, "rm -rf ./build");
				await settled(home, b);
				expect(decisionOf(rm.stdout)?.decision, rm.stdout + rm.stderr).toBe("deny");
				expect(exited).toBe(true);
				expect(readFileSync(join(home, ".xcsh", "agent", "server.log"), "utf8")).toContain("leftBehind");
			}),
		120_000,
	);

	test.concurrent(
		"hooks that change nothing: the server keeps serving both projects (no false alarm)",
		() =>
			withSetup("void 0;", async ({ home, a, b }) => {
				const pid = await startedServer(home, b);
				for (let i = 0; i < 3; i++) {
					const call = await bridge(home, i % 2 ? b : a, "ls -la");
					expect(call.stderr).toContain('["forwarded",');
					expect(decisionOf(call.stdout)?.decision).toBeUndefined();
				}
				const rm = await bridge(home, b, "rm -rf ./build");
				expect(rm.stderr).toContain('["forwarded",');
				expect(decisionOf(rm.stdout)?.reason).toContain("B-GUARD: no rm -rf");
				expect(alive(pid)).toBe(true);
			}),
		120_000,
	);
});
