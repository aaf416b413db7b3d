import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { minimalEnv, runArgv, runCli, useClis } from "../faults/_cli.ts";
import { tempDir, writeFiles } from "../faults/_fixtures.ts";

/*
 * Review of the OpenCode/Kilo plugin: a hook's `process.exit` must not end the agent (it is the hook's
 * error: the call is blocked naming the hook; in a factory, a load error blocking every call) while the
 * agent's own exit still works; and a first load that failed must still be watched, so fixing the hook
 * lifts the block without restarting the agent. Through `install opencode` of each CLI and the fake
 * OpenCode host, with real hook files approved in a temp HOME.
 */

const FAKE_HOST = join(import.meta.dir, "_fake-opencode.ts");

const EXITING = `export default function (pi) {
	pi.on("tool_call", async (event) => {
		const command = event.input.command;
		if (command === "rm -rf src") process.exit(0);
		if (command === "echo await") {
			await new Promise((resolve) => setTimeout(resolve, 5));
			process.exit(2);
		}
		if (command === "echo timer") setTimeout(() => { process.exit(3); }, 10);
	});
	// A proper tail call: JavaScriptCore leaves no frame of the hook on the stack.
	pi.on("tool_call", (event) => (event.input.command === "echo tail" ? process.exit(4) : undefined));
}
`;

const GUARD = `export default function (pi) {
	pi.on("tool_call", (event) => (event.input.command === "rm -rf src" ? { block: true, reason: "GUARD-LOADED" } : undefined));
}
`;

async function project(cli: Parameters<typeof runCli>[0], files: Record<string, string>) {
	const home = tempDir("xcsh-ipx-home-");
	const proj = tempDir("xcsh-ipx-proj-");
	writeFiles(proj, { "build/keep.txt": "keep\n", ...files });
	const paths = Object.keys(files).map((p) => join(proj, p));
	const approved = await runCli(cli, ["trust", "approve", ...paths], { cwd: proj, home, timeoutMs: 30_000 });
	expect(approved.code).toBe(0);
	const installed = await runCli(cli, ["install", "opencode"], { cwd: proj, home, timeoutMs: 30_000 });
	expect(installed.code).toBe(0);
	return { home, proj, plugin: join(proj, ".opencode", "plugin", "xcsh-hooks.ts") };
}

function host(p: { home: string; proj: string; plugin: string }, steps: string[], timeoutMs = 60_000) {
	return runArgv([process.execPath, FAKE_HOST, p.plugin, steps.join(",")], {
		cwd: p.proj,
		home: p.home,
		env: minimalEnv(p.home),
		timeoutMs,
	});
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, any>;

for (const cli of useClis()) {
	describe(`in-process plugin via ${cli.name}: process.exit and the first load`, () => {
		test("a hook's process.exit blocks the call naming the hook (sync, after an await, tail call, in a timer); the agent's own exit works", async () => {
			const p = await project(cli, { ".xcsh/hooks/exits.ts": EXITING });
			const run = await host(p, ["rm", "bash:echo await", "bash:echo tail", "bash:echo timer", "wait300", "harmless", "exit7"]);
			// The host ran to its own end and its own exit code: no hook's exit ended it.
			expect(run.code).toBe(7);
			const out = lastJson(run.stdout);
			for (const [call, code] of [
				[out.rm, 0],
				[out["bash:echo await"], 2],
				[out["bash:echo tail"], 4],
			] as const) {
				expect(call.ran).toBe(false);
				expect(call.reason).toContain(join(p.proj, ".xcsh/hooks/exits.ts"));
				expect(call.reason).toContain(`process.exit(${code})`);
			}
			// A timer the hook scheduled: the exit throws there (the agent logs an uncaught error and goes on).
			expect(out["bash:echo timer"].ran).toBe(true);
			expect(out.uncaught).toEqual([expect.stringContaining("process.exit(3)")]);
			expect(out.harmless.ran).toBe(true);
			expect(existsSync(join(p.proj, "build", "keep.txt"))).toBe(true);
		}, 120_000);

		test("process.exit in a factory or at a module's top level is a load error: every tool call is blocked, naming the hook", async () => {
			const p = await project(cli, {
				".xcsh/hooks/factory.ts": "export default function (pi) {\n\tprocess.exit(5);\n}\n",
				".xcsh/hooks/toplevel.ts": "process.exit(6);\nexport default function () {}\n",
			});
			const run = await host(p, ["rm", "harmless"]);
			expect(run.code).toBe(0);
			const out = lastJson(run.stdout);
			expect(out.initError).toBeUndefined();
			for (const call of [out.rm, out.harmless]) {
				expect(call.ran).toBe(false);
				expect(call.reason).toContain("factory.ts");
				expect(call.reason).toContain("process.exit(5)");
				expect(call.reason).toContain("toplevel.ts");
				expect(call.reason).toContain("process.exit(6)");
			}
		}, 120_000);
	});
}

for (const cli of useClis()) {
	describe(`in-process plugin via ${cli.name}: a first load that failed`, () => {
		test("is watched: every call is blocked until the cause is fixed, then the hooks load without restarting the agent", async () => {
			const p = await project(cli, { ".xcsh/hooks/guard.ts": GUARD });
			// The whole load fails: the session file the runtime writes is a folder.
			const session = join(p.home, ".xcsh", "agent", "sessions", "opencode.jsonl");
			mkdirSync(session, { recursive: true });
			const running = host(p, ["harmless", "ready", "harmlessUntil60000", "rm"], 90_000);
			const ready = join(p.proj, ".host-ready");
			for (let i = 0; i < 600 && !existsSync(ready); i++) await Bun.sleep(100);
			expect(existsSync(ready)).toBe(true);
			rmSync(session, { recursive: true });
			const run = await running;
			expect(run.code).toBe(0);
			const out = lastJson(run.stdout);
			expect(out.initError).toBeUndefined();
			// The first call, before the fix, was blocked (fail closed) with why.
			expect(out.firstHarmless).toEqual({ ran: false, reason: expect.stringContaining("opencode.jsonl") });
			expect(out.harmless.ran).toBe(true);
			expect(out.rm).toEqual({ ran: false, reason: "GUARD-LOADED" });
		}, 120_000);
	});
}
