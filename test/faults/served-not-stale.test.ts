/**
 * A served guard is never stale (docs/contract.md#trust): `serve`, `serve --socket` and `serve --http` reload when a
 * file a loaded hook imports changes, not only the hook file. An approved project guard whose imported
 * policy was edited then fails closed in the server exactly as a lone call does, and runs the new policy
 * once approved; a user hook's edited import runs anew (never the cached module).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, type Line, minimalEnv, runCli, serveCli, useClis, withServer } from "./_cli.ts";
import { expectBlockedEmit, expectServeBlock } from "./_expect.ts";
import { bashCall, privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

const policy = (banned: string[], reason: string) =>
	`export const banned = ${JSON.stringify(banned)};\nexport const reason = ${JSON.stringify(reason)};\n`;

const guard = (from: string) => `import { banned, reason } from ${JSON.stringify(from)};
export default (pi) => pi.on("tool_call", (e) => (banned.some((b) => String(e.input.command).includes(b)) ? { block: true, reason } : undefined));
`;

const V1 = policy(["rm"], "policy v1: no rm");
const V2 = policy(["rm", "ls"], "policy v2: no ls either");

/** Runs `attempt` until `done` holds, at most `tries` times, 200 ms apart; returns the last result. */
async function eventually<T>(attempt: () => Promise<T>, done: (value: T) => boolean, tries = 40): Promise<T> {
	let last = await attempt();
	for (let i = 1; i < tries && !done(last); i++) {
		await Bun.sleep(200);
		last = await attempt();
	}
	return last;
}

/** A project whose approved guard imports `lib/policy.ts` (v1), with its own HOME. */
async function approvedProject(cli: Cli) {
	const dir = tempDir("xcsh-faults-stale-");
	const home = privateHome();
	writeFiles(dir, { ".xcsh/hooks/guard.ts": guard("../../lib/policy"), "lib/policy.ts": V1 });
	const hook = join(dir, ".xcsh", "hooks", "guard.ts");
	const approve = async () => {
		const run = await runCli(cli, ["trust", "approve", hook], { cwd: dir, home });
		if (run.code !== 0) throw new Error(`trust approve failed (${run.code}): ${run.stderr}`);
	};
	await approve();
	return { dir, home, hook, policy: join(dir, "lib", "policy.ts"), approve };
}

const claudeBash = (cwd: string, command: string) =>
	JSON.stringify({
		session_id: "stale-session",
		transcript_path: join(cwd, "transcript.jsonl"),
		cwd,
		hook_event_name: "PreToolUse",
		tool_name: "Bash",
		tool_input: { command },
		tool_use_id: "toolu_1",
	});

/** The deny reason of a `bridge claude` answer, or `undefined` for an allow. */
function denyOf(stdout: string): string | undefined {
	if (stdout.trim() === "") return undefined;
	const answer = JSON.parse(stdout).hookSpecificOutput;
	return answer?.permissionDecision === "deny" ? String(answer.permissionDecisionReason) : undefined;
}

/** Reads a long-lived process's stdout until `needle` appears (bounded by the caller's SIGKILL). */
async function readUntil(proc: Bun.Subprocess<"ignore", "pipe", "pipe">, needle: string): Promise<string> {
	const reader = proc.stdout.getReader();
	const decoder = new TextDecoder();
	let text = "";
	while (!text.includes(needle)) {
		const { done, value } = await reader.read();
		if (done) throw new Error(`the server exited before printing ${needle}: ${text}`);
		text += decoder.decode(value, { stream: true });
	}
	reader.releaseLock();
	return text;
}

/** Starts a long-lived `xcsh-hooks serve …`, killed after 50 s at the latest. */
function startServer(cli: Cli, args: string[], cwd: string, home: string) {
	const proc = Bun.spawn(cli.argv(["serve", ...args]), { cwd, env: minimalEnv(home), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	const guardTimer = setTimeout(() => proc.kill("SIGKILL"), 50_000);
	const stop = async () => {
		proc.kill("SIGTERM");
		const killer = setTimeout(() => proc.kill("SIGKILL"), 5000);
		await proc.exited;
		clearTimeout(killer);
		clearTimeout(guardTimer);
	};
	return { proc, stop };
}

function cells(cli: Cli): void {
	test.concurrent("serve: an approved guard's imported policy edited → fails closed as a lone call does; approved → the new policy", async () => {
		const p = await approvedProject(cli);
		const server = serveCli(cli, [], { cwd: p.dir, home: p.home });
		let id = 0;
		const call = async (command: string): Promise<Line> => {
			const current = ++id;
			server.send(toolCallRequest(current, command));
			return server.response(current);
		};
		await withServer(server, async () => {
			expect((await call("ls -la")).result).toEqual({ block: false });
			writeFileSync(p.policy, V2);
			const lone = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("ls -la") });
			expectBlockedEmit(lone, `xcsh-hooks trust approve ${p.hook}`);
			const served = await eventually(
				() => call("ls -la"),
				(line) => line.result?.block === true,
			);
			expectServeBlock(served, `xcsh-hooks trust approve ${p.hook}`);

			await p.approve();
			const approved = await eventually(
				() => call("ls -la"),
				(line) => line.result?.reason === "policy v2: no ls either",
			);
			expectServeBlock(approved, "policy v2: no ls either");
		});
	}, 60_000);

	test.concurrent("serve --socket: a tightened policy of an approved guard never keeps allowing what a lone call denies", async () => {
		const p = await approvedProject(cli);
		const server = startServer(cli, ["--socket"], p.dir, p.home);
		try {
			await readUntil(server.proc, '"socket"');
			const bridge = (command: string) =>
				runCli(cli, ["bridge", "claude"], {
					cwd: p.dir,
					home: p.home,
					stdin: claudeBash(p.dir, command),
					env: { XCSH_HOOKS_PROFILE: "1" },
				});
			const first = await bridge("ls -la");
			expect(first.stderr).toContain('["forwarded",'); // the server answers
			expect(denyOf(first.stdout)).toBeUndefined();

			writeFileSync(p.policy, V2);
			await p.approve();
			const lone = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("ls -la") });
			expectBlockedEmit(lone, "policy v2: no ls either");
			const served = await eventually(
				() => bridge("ls -la"),
				(run) => denyOf(run.stdout) !== undefined,
			);
			expect(served.stderr).toContain('["forwarded",');
			expect(denyOf(served.stdout)).toStartWith("policy v2: no ls either");
		} finally {
			await server.stop();
		}
	}, 60_000);

	test.concurrent("serve --http: a user hook's edited import runs anew after the reload, not the cached module", async () => {
		const dir = tempDir("xcsh-faults-stale-");
		const home = privateHome();
		writeFiles(home, { ".xcsh/agent/hooks/guard.ts": guard("./lib/policy.ts"), ".xcsh/agent/hooks/lib/policy.ts": V1 });
		const server = startServer(cli, ["--http", "127.0.0.1:0"], dir, home);
		try {
			const ready = await readUntil(server.proc, "\n");
			const url = String(JSON.parse(ready.split("\n")[0] as string).params.url);
			const token = readFileSync(join(home, ".xcsh", "agent", "http-token"), "utf8").trim();
			const post = async (command: string) => {
				const response = await fetch(url, {
					method: "POST",
					body: claudeBash(dir, command),
					headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
				});
				return denyOf(await response.text());
			};
			expect(await post("ls -la")).toBeUndefined();
			writeFileSync(join(home, ".xcsh", "agent", "hooks", "lib", "policy.ts"), V2);
			const denied = await eventually(
				() => post("ls -la"),
				(reason) => reason !== undefined,
			);
			expect(denied).toStartWith("policy v2: no ls either");
		} finally {
			await server.stop();
		}
	}, 60_000);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
