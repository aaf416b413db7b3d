/**
 * `bridge <agent>` with `serve --socket` running (src/socket/forward.ts, src/serve/bridge-socket.ts):
 * the same answers as a call run on its own, through real processes and a real Unix socket; and every
 * way the server can be missing, stale, busy, stuck, refusing or failing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";
import { waitFor } from "../serve/_hook.ts";
import { answerOf, CLI, fixture, type Run, spawnRun } from "./_bridge.ts";

const GUARD = `export default function (pi) {
	pi.on("tool_call", (event, ctx) => {
		const command = event.toolName === "bash" ? String(event.input.command) : "";
		if (command.includes("rm -rf")) return { block: true, reason: "GUARD v1: no rm -rf in " + ctx.cwd };
		if (command === "echo REWRITE-ME") return { input: { ...event.input, command: "echo REWRITTEN" } };
	});
}
`;

interface Setup {
	home: string;
	project: string;
	socket: string;
	hooks: string;
}

function setup(): Setup {
	const root = tempDir("xcsh-fwd-");
	const home = join(root, "home");
	const project = join(root, "project");
	const hooks = join(home, ".xcsh", "agent", "hooks");
	mkdirSync(hooks, { recursive: true });
	mkdirSync(project);
	writeFileSync(join(hooks, "guard.ts"), GUARD);
	return { home, project, hooks, socket: join(home, ".xcsh", "agent", "bridge.sock") };
}

const servers: Array<ReturnType<typeof Bun.spawn>> = [];
afterEach(async () => {
	for (const server of servers.splice(0)) {
		server.kill("SIGTERM");
		await server.exited;
	}
}, 60_000);

/** Starts `serve --socket` for `s.home`; resolves once it printed its ready line. */
async function startServer(s: Setup): Promise<ReturnType<typeof Bun.spawn>> {
	const proc = Bun.spawn(["bun", CLI, "serve", "--socket"], {
		cwd: s.project,
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home, TMPDIR: process.env.TMPDIR ?? "/tmp" },
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
	});
	servers.push(proc);
	const { value } = await proc.stdout.getReader().read();
	expect(new TextDecoder().decode(value)).toContain(`"socket":"${s.socket}"`);
	return proc;
}

/** One bridge call with the profile on, so a test sees whether it was forwarded. */
async function call(
	s: Setup,
	payload: unknown,
	args: string[] = [],
	env: Record<string, string> = {},
): Promise<Run & { forwarded: boolean }> {
	const run = await spawnRun(["bun", CLI, "bridge", "claude", ...args], {
		stdin: JSON.stringify(payload),
		home: s.home,
		cwd: s.project,
		env: { XCSH_HOOKS_PROFILE: "1", ...env },
	});
	return { ...run, forwarded: run.stderr.includes('["forwarded",') };
}

const bash = (s: Setup, command: string, extra: Record<string, unknown> = {}) => ({
	...fixture("claude", "PreToolUse.Bash.json", s.project),
	tool_input: { command, description: "t" },
	...extra,
});

const denyReason = (run: Run) =>
	(answerOf(run) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } } | undefined)
		?.hookSpecificOutput;

describe("bridge with serve --socket", () => {
	test("answers exactly as a call run on its own: deny, allow, rewrite — and says it was forwarded", async () => {
		const s = setup();
		const cases = ["rm -rf /", "ls -la", "echo REWRITE-ME"];
		const alone = await Promise.all(cases.map((command) => call(s, bash(s, command))));
		await startServer(s);
		for (const [i, command] of cases.entries()) {
			const served = await call(s, bash(s, command));
			expect(served.forwarded).toBe(true);
			expect(alone[i]?.forwarded).toBe(false);
			expect(answerOf(served)).toEqual(answerOf(alone[i] as Run));
		}
		expect(denyReason(await call(s, bash(s, "rm -rf /")))?.permissionDecisionReason).toContain(`GUARD v1: no rm -rf in ${s.project}`);
		// Every guard decision is on record, as without the server.
		const log = readFileSync(join(s.home, ".xcsh", "agent", "decisions.jsonl"), "utf8")
			.trim()
			.split("\n");
		expect(log.length).toBeGreaterThanOrEqual(7);
	}, 60_000);

	test("the socket is 0600; a second server, a file in its place and --hook are refused, the file kept", async () => {
		const s = setup();
		await startServer(s);
		expect(statSync(s.socket).mode & 0o777).toBe(0o600);
		const second = await spawnRun(["bun", CLI, "serve", "--socket"], { home: s.home, cwd: s.project });
		expect(second.code).toBe(1);
		expect(second.stderr).toContain("another serve --socket is already running");
		const withHook = await spawnRun(["bun", CLI, "serve", "--socket", "--hook", "x.ts"], { home: s.home, cwd: s.project });
		expect(withHook.code).toBe(1);
		expect(withHook.stderr).toContain("--socket answers bridge calls exactly as they would run on their own, so it takes no --hook");

		const other = setup();
		mkdirSync(join(other.home, ".xcsh", "agent"), { recursive: true });
		writeFileSync(other.socket, "my notes");
		const blocked = await spawnRun(["bun", CLI, "serve", "--socket"], { home: other.home, cwd: other.project });
		expect(blocked.code).toBe(1);
		expect(blocked.stderr).toContain("exists and is not a socket");
		expect(readFileSync(other.socket, "utf8")).toBe("my notes");
		// And a bridge call there still runs on its own.
		const run = await call(other, bash(other, "rm -rf /"));
		expect(run.forwarded).toBe(false);
		expect(denyReason(run)?.permissionDecision).toBe("deny");
	}, 60_000);

	test("a changed hook and a trust approval reach the next calls (the server reloads)", async () => {
		const s = setup();
		const projectHooks = join(s.project, ".xcsh", "hooks");
		mkdirSync(projectHooks, { recursive: true });
		writeFileSync(join(projectHooks, "project-guard.ts"), GUARD.replace("rm -rf", "git push").replace("GUARD v1", "PROJECT"));
		await startServer(s);
		expect(denyReason(await call(s, bash(s, "git push")))).toBeUndefined(); // not approved: skipped
		writeFileSync(join(s.hooks, "guard.ts"), GUARD.replace("GUARD v1", "GUARD v2"));
		await waitFor(async () => ((await call(s, bash(s, "rm -rf /"))).stdout.includes("GUARD v2") ? true : undefined), 15_000, "v2");
		const approve = await spawnRun(["bun", CLI, "trust", "approve", "--all"], { home: s.home, cwd: s.project });
		expect(approve.code).toBe(0);
		const pushed = await waitFor(
			async () => {
				const run = await call(s, bash(s, "git push"));
				return run.stdout.includes("PROJECT") ? run : undefined;
			},
			15_000,
			"the approved project hook",
		);
		expect(pushed.forwarded).toBe(true);
	}, 60_000);

	test("calls the server cannot take as they are run on their own: --hook, --cwd, --no-discovery", async () => {
		const s = setup();
		writeFileSync(join(s.project, "extra.ts"), GUARD.replace("GUARD v1", "EXTRA"));
		await startServer(s);
		const withHook = await call(s, bash(s, "rm -rf /"), ["--hook", join(s.project, "extra.ts")]);
		expect(withHook.forwarded).toBe(false);
		expect(denyReason(withHook)?.permissionDecisionReason).toMatch(/\[xcsh-hooks: (guard|extra)\.ts\]$/);
		expect((await call(s, bash(s, "rm -rf /"), ["--no-discovery"])).forwarded).toBe(false);
		expect((await call(s, bash(s, "rm -rf /"), ["--cwd", s.project])).forwarded).toBe(false);
		// --event, --timeout and --allow-load-errors travel with the call.
		const timed = await call(s, bash(s, "rm -rf /"), ["--timeout", "5", "--allow-load-errors"]);
		expect(timed.forwarded).toBe(true);
		expect(denyReason(timed)?.permissionDecision).toBe("deny");
	}, 60_000);

	test("the agent's project variable travels: CLAUDE_PROJECT_DIR picks the project when the payload's cwd is gone", async () => {
		const s = setup();
		await startServer(s);
		const payload = bash(s, "rm -rf /", { cwd: join(s.project, "gone") });
		const run = await call(s, payload, [], { CLAUDE_PROJECT_DIR: s.project });
		expect(run.forwarded).toBe(true);
		expect(denyReason(run)?.permissionDecisionReason).toContain(`no rm -rf in ${s.project}`);
	}, 60_000);

	test("a stale socket (the server was killed) and no server at all: the call runs on its own", async () => {
		const s = setup();
		const server = await startServer(s);
		server.kill("SIGKILL");
		await server.exited;
		const stale = await call(s, bash(s, "rm -rf /"));
		expect(stale.forwarded).toBe(false);
		expect(denyReason(stale)?.permissionDecisionReason).toContain("GUARD v1");
		// A new server takes the stale path over.
		await startServer(s);
		expect((await call(s, bash(s, "rm -rf /"))).forwarded).toBe(true);
	}, 60_000);

	test("a large payload arrives whole; a --timeout too long for a timer still waits for the answer", async () => {
		const s = setup();
		writeFileSync(
			join(s.hooks, "slow.ts"),
			`export default (pi) => pi.on("tool_call", async (event) => { await Bun.sleep(300); if (String(event.input.command).startsWith("slow")) return { block: true, reason: "SLOW-" + String(event.input.command).length }; });\n`,
		);
		await startServer(s);
		const big = `slow ${"x".repeat(4 * 1024 * 1024)}`;
		const run = await call(s, bash(s, big), ["--timeout", "1e12"]);
		expect(run.forwarded).toBe(true);
		expect(denyReason(run)?.permissionDecisionReason).toContain(`SLOW-${big.length}`);
	}, 60_000);

	test("a hook that hangs: the server's deadline denies (the call's own --timeout)", async () => {
		const s = setup();
		writeFileSync(join(s.hooks, "hangs.ts"), `export default (pi) => pi.on("tool_call", () => new Promise(() => {}));\n`);
		await startServer(s);
		const run = await call(s, bash(s, "ls"), ["--timeout", "1"]);
		expect(run.forwarded).toBe(true);
		expect(denyReason(run)?.permissionDecisionReason).toContain("hooks did not answer within 1 s (fail closed)");
	}, 60_000);
});

/**
 * A stand-in server on the socket path that misbehaves as `behave` says, for what a real one cannot be
 * made to do: it says `ready` to a request and, after the client's `go`, closes, hangs or answers garbage.
 */
function fakeServer(s: Setup, behave: "refuse" | "silent" | "ack-then-close" | "ack-then-hang" | "garbage") {
	mkdirSync(join(s.home, ".xcsh", "agent"), { recursive: true, mode: 0o700 });
	return Bun.listen<{ text: string }>({
		unix: s.socket,
		socket: {
			open(socket) {
				socket.data = { text: "" };
			},
			data(socket, chunk) {
				const first = socket.data.text === "";
				socket.data.text += new TextDecoder().decode(chunk);
				if (behave === "refuse") socket.end('{"refused":"no"}\n');
				else if (behave === "silent") return;
				else if (first) socket.write('{"ready":true}\n');
				else if (!socket.data.text.endsWith('{"go":true}\n')) return;
				else if (behave === "ack-then-close") socket.end();
				else if (behave === "garbage") socket.end('{"stdout":42}\n');
			},
		},
	});
}

describe("bridge with a server that misbehaves", () => {
	test("before its acknowledgement (refuses, or says nothing for 1 s): the call runs on its own", async () => {
		for (const behave of ["refuse", "silent"] as const) {
			const s = setup();
			const fake = fakeServer(s, behave);
			try {
				const run = await call(s, bash(s, "rm -rf /"));
				expect(run.forwarded).toBe(false);
				expect(denyReason(run)?.permissionDecisionReason).toContain("GUARD v1"); // the real hooks, run here
			} finally {
				fake.stop(true);
			}
		}
	}, 60_000);

	test("after it: the connection drops, or the reply is not an answer — a guard is denied, the hooks are not run again", async () => {
		for (const behave of ["ack-then-close", "garbage"] as const) {
			const s = setup();
			const fake = fakeServer(s, behave);
			try {
				const run = await call(s, bash(s, "ls"));
				expect(run.forwarded).toBe(true);
				const out = denyReason(run);
				expect(out?.permissionDecision).toBe("deny");
				expect(out?.permissionDecisionReason).toContain(`the hook server at ${s.socket} failed`);
				// A non-guard event gets "no opinion".
				const prompt = await call(s, { ...fixture("claude", "UserPromptSubmit.json", s.project) });
				expect(prompt.stdout).toBe("");
				expect(prompt.stderr).toContain("the hook server");
			} finally {
				fake.stop(true);
			}
		}
	}, 60_000);

	test("a signal while the server works: the deny, exit 0", async () => {
		const s = setup();
		const fake = fakeServer(s, "ack-then-hang");
		try {
			const proc = Bun.spawn(["bun", CLI, "bridge", "claude"], {
				cwd: s.project,
				env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home, XCSH_HOOKS_PROFILE: "1" },
				stdin: new TextEncoder().encode(JSON.stringify(bash(s, "ls"))),
				stdout: "pipe",
				stderr: "pipe",
			});
			const stderr = new Response(proc.stderr).text();
			await waitFor(() => (existsSync(s.socket) ? true : undefined));
			await Bun.sleep(1500); // connected and acknowledged
			proc.kill("SIGTERM");
			const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
			expect(code).toBe(0);
			expect(JSON.parse(stdout).hookSpecificOutput.permissionDecisionReason).toContain(
				"interrupted by SIGTERM before the hook server answered",
			);
			expect(await stderr).toContain("interrupted by SIGTERM before the hook server answered; the tool call is denied (fail closed)");
		} finally {
			fake.stop(true);
		}
	}, 60_000);
});
