/**
 * The hook server starts itself (src/socket/autostart.ts): after `install claude` and nothing else,
 * the first call runs on its own and starts `serve --socket`, the calls after it are served — shown
 * by the process a hook runs in (it records `process.pid`) and the server's served-calls counter.
 * One start for ten calls at once; stale locks recovered; `"server": false` (the user's only); other
 * versions never talk; idle exit; a fixed environment. Every test has its own HOME, and every server
 * a test causes is killed by its pid (read from the server's log) afterwards.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";
import { type Cli, pathWith, runArgv, useClis } from "../faults/_cli.ts";

const clis = useClis();

/** The hook: records the pid it runs in and whether it sees the first caller's secret; denies `rm -rf`. */
const HOOK = (log: string) => `import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("tool_call", (event) => {
		appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, secret: process.env.FIRST_CALLER_SECRET ?? null }) + "\\n");
		if (String(event.input.command).includes("rm -rf")) return { block: true, reason: "AUTO: no rm -rf" };
	});
}
`;

interface Setup {
	home: string;
	project: string;
	agent: string;
	pids: string;
}

const homes: string[] = [];

function setup(): Setup {
	const root = tempDir("xcsh-auto-");
	const home = join(root, "home");
	const project = join(root, "project");
	const agent = join(home, ".xcsh", "agent");
	mkdirSync(join(agent, "hooks"), { recursive: true, mode: 0o700 });
	mkdirSync(project);
	const pids = join(root, "pids.jsonl");
	writeFileSync(join(agent, "hooks", "pid.ts"), HOOK(pids));
	homes.push(home);
	return { home, project, agent, pids };
}

/** The pids of every server a home's log says started listening. */
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

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
	for (let waited = 0; waited < ms; waited += 50) {
		const value = await probe();
		if (value !== undefined) return value;
		await Bun.sleep(50);
	}
	throw new Error(`timed out waiting for ${what}`);
}

afterEach(async () => {
	for (const home of homes.splice(0))
		for (const pid of serverPids(home)) {
			if (alive(pid)) process.kill(pid, "SIGKILL");
			await until(`server ${pid} to end`, () => (alive(pid) ? undefined : true), 10_000);
		}
}, 30_000);

/** The environment of an agent: the server on as by default, and a secret of this caller's. */
const agentEnv = { XCSH_HOOKS_SERVER: "", FIRST_CALLER_SECRET: "s3cret", NO_COLOR: "1" };

const payload = (s: Setup, command: string) =>
	JSON.stringify({
		session_id: "s1",
		transcript_path: join(s.project, "t.jsonl"),
		cwd: s.project,
		hook_event_name: "PreToolUse",
		tool_name: "Bash",
		tool_input: { command },
	});

function bridge(cli: Cli, s: Setup, command: string, env: Record<string, string> = agentEnv) {
	return runArgv(cli.argv(["bridge", "claude"]), { cwd: s.project, home: s.home, stdin: payload(s, command), env, timeoutMs: 30_000 });
}

async function status(cli: Cli, s: Setup): Promise<{ running: boolean; pid?: number; served?: number; version?: string }> {
	const run = await runArgv(cli.argv(["serve", "--status", "--json"]), { cwd: s.project, home: s.home, env: agentEnv });
	expect(run.code).toBe(0);
	return JSON.parse(run.stdout);
}

const hookPids = (s: Setup) =>
	readFileSync(s.pids, "utf8")
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line) as { pid: number; secret: string | null });

const running = (cli: Cli, s: Setup) => async () => {
	const now = await status(cli, s);
	return now.running ? now : undefined;
};

for (const cli of clis) {
	describe(`hook server autostart (${cli.name})`, () => {
		test("after install claude and nothing else, the second call of a session is served by the server it started", async () => {
			const s = setup();
			const install = await runArgv(cli.argv(["install", "claude"]), { cwd: s.project, home: s.home, env: agentEnv });
			expect(install.code).toBe(0);
			const settings = JSON.parse(readFileSync(join(s.project, ".claude", "settings.json"), "utf8"));
			const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
			// The project's entry runs xcsh-hooks found on PATH, as on any machine it is installed on.
			const env = { ...agentEnv, PATH: pathWith(cli) };
			const asClaude = () =>
				runArgv(["sh", "-c", command], { cwd: s.project, home: s.home, stdin: payload(s, "rm -rf /"), env, timeoutMs: 30_000 });

			const first = await asClaude();
			expect(first.stdout).toContain("AUTO: no rm -rf");
			const server = await until("the server to listen", running(cli, s));
			expect(server.served).toBe(0);
			for (let i = 0; i < 2; i++) expect((await asClaude()).stdout).toContain("AUTO: no rm -rf");
			const [own, ...served] = hookPids(s);
			// The first call ran its hook in its own process; every later one in the server's.
			expect(own?.pid).not.toBe(server.pid);
			expect(served.map((p) => p.pid)).toEqual([server.pid as number, server.pid as number]);
			expect((await status(cli, s)).served).toBe(2);
			// The server's environment is its own, not the first caller's.
			expect(own?.secret).toBe("s3cret");
			expect(served.map((p) => p.secret)).toEqual([null, null]);
			expect(serverPids(s.home)).toEqual([server.pid as number]);
		}, 90_000);

		test("ten calls at once start exactly one server, and every one is answered", async () => {
			const s = setup();
			const runs = await Promise.all(Array.from({ length: 10 }, () => bridge(cli, s, "rm -rf /")));
			for (const run of runs) expect(run.stdout).toContain("AUTO: no rm -rf");
			await until("the server to listen", running(cli, s));
			const log = readFileSync(join(s.agent, "server.log"), "utf8");
			expect(log.match(/starting the hook server/g)?.length).toBe(1);
			expect(serverPids(s.home).length).toBe(1);
			expect(existsSync(join(s.agent, "bridge.lock"))).toBe(false);
		}, 90_000);

		test('"server": false in the user settings turns it off; in the project settings it does not', async () => {
			const s = setup();
			writeFileSync(join(s.agent, "settings.json"), JSON.stringify({ server: false }));
			mkdirSync(join(s.project, ".xcsh"));
			for (let i = 0; i < 2; i++) expect((await bridge(cli, s, "rm -rf /")).stdout).toContain("AUTO: no rm -rf");
			expect(existsSync(join(s.agent, "server.log"))).toBe(false);
			expect((await status(cli, s)).running).toBe(false);

			const p = setup();
			mkdirSync(join(p.project, ".xcsh"));
			writeFileSync(join(p.project, ".xcsh", "settings.json"), JSON.stringify({ server: false }));
			await bridge(cli, p, "ls");
			await until("the server to listen", running(cli, p));
		}, 90_000);

		test('a running server gives up at the next call once "server": false is set; that call runs on its own', async () => {
			const s = setup();
			await bridge(cli, s, "ls");
			const server = await until("the server to listen", running(cli, s));
			expect((await bridge(cli, s, "rm -rf /")).stdout).toContain("AUTO: no rm -rf");
			expect((await status(cli, s)).served).toBe(1);
			writeFileSync(join(s.agent, "settings.json"), JSON.stringify({ server: false }));
			const after = await bridge(cli, s, "rm -rf /");
			expect(after.stdout).toContain("AUTO: no rm -rf");
			await until("the server to exit", () => (alive(server.pid as number) ? undefined : true));
			expect((await status(cli, s)).running).toBe(false);
			const [, served, own] = hookPids(s);
			expect(served?.pid).toBe(server.pid as number);
			expect(own?.pid).not.toBe(server.pid); // run here, not in the server that stepped down
			expect((await bridge(cli, s, "ls")).code).toBe(0);
			expect(serverPids(s.home)).toEqual([server.pid as number]); // and none started again
		}, 90_000);

		test("a lock of a live starter holds the start back; a stale one (its pid gone) is recovered", async () => {
			const s = setup();
			writeFileSync(join(s.agent, "bridge.lock"), `${process.pid}\n`);
			await bridge(cli, s, "ls");
			expect(existsSync(join(s.agent, "server.log"))).toBe(false);

			const gone = Bun.spawn(["true"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home } });
			await gone.exited;
			writeFileSync(join(s.agent, "bridge.lock"), `${gone.pid}\n`);
			expect((await bridge(cli, s, "rm -rf /")).stdout).toContain("AUTO: no rm -rf");
			await until("the server to listen", running(cli, s));
			expect(existsSync(join(s.agent, "bridge.lock"))).toBe(false);
		}, 90_000);

		test("other versions never talk: an older client is refused and the server stays; a newer one replaces it", async () => {
			const s = setup();
			await bridge(cli, s, "ls");
			const server = await until("the server to listen", running(cli, s));
			const socket = join(s.agent, "bridge.sock");
			const ask = (version: string) =>
				new Promise<string>((resolve) => {
					let text = "";
					const line = `${JSON.stringify({ agent: "claude", version, pwd: s.project, env: {}, length: 2 })}\n{}`;
					void Bun.connect({
						unix: socket,
						socket: {
							open: (sock) => void sock.write(line),
							data: (_sock, chunk) => void (text += new TextDecoder().decode(chunk)),
							close: () => resolve(text),
						},
					});
				});
			const older = JSON.parse(await ask("0.0.1"));
			expect(older.refused).toContain("0.0.1");
			expect(older.version).toBe(server.version);
			expect((await status(cli, s)).pid).toBe(server.pid);
			const newer = JSON.parse(await ask("999.0.0"));
			expect(newer.refused).toContain("999.0.0");
			await until("the old server to exit", () => (alive(server.pid as number) ? undefined : true));
			// The next call finds no server and starts one of its own version.
			await bridge(cli, s, "ls");
			const next = await until("a new server", running(cli, s));
			expect(next.pid).not.toBe(server.pid);
		}, 90_000);

		test("a client replaces an older server: refused, it starts its own and runs its call here", async () => {
			const s = setup();
			const socket = join(s.agent, "bridge.sock");
			// An old server: refuses with its version, and gives the socket up as a real one does.
			const old = Bun.spawn(
				[
					process.execPath,
					"-e",
					`const fs = require("node:fs"); const l = Bun.listen({ unix: ${JSON.stringify(socket)}, socket: { data(s) { if (s.data) return; s.data = 1; l.stop(); try { fs.unlinkSync(${JSON.stringify(socket)}); } catch {} s.end(JSON.stringify({ refused: "old", version: "0.0.1" }) + "\\n"); setTimeout(() => process.exit(0), 100); } } }); fs.chmodSync(${JSON.stringify(socket)}, 0o600); console.log("up");`,
				],
				{ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: s.home }, stdout: "pipe", stderr: "inherit" },
			);
			await old.stdout.getReader().read();
			const run = await bridge(cli, s, "rm -rf /");
			expect(run.stdout).toContain("AUTO: no rm -rf");
			await old.exited;
			const next = await until("the new server", running(cli, s));
			expect(readFileSync(join(s.agent, "server.log"), "utf8")).toContain("replacing the hook server of version 0.0.1");
			expect(next.pid).toBe(serverPids(s.home)[0] as number);
		}, 90_000);

		test("an idle server exits after serverIdleMinutes", async () => {
			const s = setup();
			writeFileSync(join(s.agent, "settings.json"), JSON.stringify({ serverIdleMinutes: 0.02 }));
			await bridge(cli, s, "ls");
			const server = await until("the server to listen", running(cli, s));
			await until("the idle server to exit", () => (alive(server.pid as number) ? undefined : true), 30_000);
			expect(readFileSync(join(s.agent, "server.log"), "utf8")).toContain("exiting: idle for 0.02 min");
			expect(existsSync(join(s.agent, "bridge.sock"))).toBe(false);
		}, 90_000);
	});
}
