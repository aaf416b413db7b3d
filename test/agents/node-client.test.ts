/**
 * The socket client the generated Node plugins embed (src/agents/_shared/node-client.ts), run under real
 * Node against a scripted server on a real Unix socket at `~/.xcsh/agent/bridge.sock` of a private HOME:
 * a served call starts no process; before `go` anything wrong runs the bridge command instead (and the
 * server runs nothing); after `go` anything wrong — the server gone mid-call, no answer in time, a reply
 * that is not an answer — is a failure (the plugins block on it), never a second run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GO_LINE as BRIDGE_GO_LINE, VERDICTS as BRIDGE_VERDICTS } from "../../src/socket/protocol.ts";
import { OTLP_VARIABLES as BRIDGE_OTLP } from "../../src/decisions/otlp-queue.ts";
import { GO_LINE, NODE_CLIENT_IMPORTS, nodeClientSource, OTLP_VARIABLES, VERDICTS } from "../../src/agents/_shared/node-client.ts";
import { PACKAGE_VERSION } from "../../src/package-version.ts";
import { minimalEnv } from "../faults/_cli.ts";
import { privateHome, tempDir } from "../faults/_fixtures.ts";

const TIMEOUT_MS = 60_000;

/** What the scripted server does with one connection, given the request line it read. */
type Script = (conn: { request: Record<string, unknown>; reply(line: string): void; close(): void; onGo(then: () => void): void }) => void;

interface Fake {
	requests: Record<string, unknown>[];
	payloads: string[];
	gos: number;
	stop(): void;
}

const listeners: Array<{ stop(): void }> = [];
afterEach(() => {
	for (const l of listeners.splice(0)) l.stop();
});

/** A scripted `serve --socket` on `home`'s socket (the folder created 0700, as the server makes it). */
function fakeServer(home: string, script: Script): Fake {
	const dir = join(home, ".xcsh", "agent");
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	chmodSync(dir, 0o700);
	const fake: Fake = { requests: [], payloads: [], gos: 0, stop: () => {} };
	const server = Bun.listen<{ buf: string; request?: Record<string, unknown>; go?: () => void; gone?: boolean }>({
		unix: join(dir, "bridge.sock"),
		socket: {
			open(s) {
				s.data = { buf: "" };
			},
			data(s, chunk) {
				s.data.buf += new TextDecoder().decode(chunk);
				if (!s.data.request) {
					const end = s.data.buf.indexOf("\n");
					if (end < 0) return;
					const request = JSON.parse(s.data.buf.slice(0, end)) as Record<string, unknown>;
					const rest = s.data.buf.slice(end + 1);
					if (rest.length < (request.length as number)) return;
					s.data.request = request;
					fake.requests.push(request);
					fake.payloads.push(rest.slice(0, request.length as number));
					s.data.buf = rest.slice(request.length as number);
					script({
						request,
						reply: (line) => {
							if (!s.data.gone) s.write(`${line}\n`);
						},
						close: () => {
							s.data.gone = true;
							s.end();
						},
						onGo: (then) => {
							s.data.go = then;
						},
					});
				}
				if (s.data.buf.startsWith(GO_LINE)) {
					s.data.buf = s.data.buf.slice(GO_LINE.length);
					fake.gos++;
					s.data.go?.();
				}
			},
		},
	});
	fake.stop = () => server.stop(true);
	listeners.push(fake);
	return fake;
}

/** Runs one `callXcsh` under Node; resolves its result and what it said. */
async function call(home: string, command: string, options: { timeoutSeconds?: number } = {}): Promise<{ result: any; said: string[] }> {
	const dir = tempDir("xcsh-node-client-");
	const module = join(dir, "client.mjs");
	writeFileSync(
		module,
		`${NODE_CLIENT_IMPORTS}\n${nodeClientSource({ deadlineMs: 20_000, timeoutSeconds: options.timeoutSeconds ?? 10 })}\nexport { callXcsh };\n`,
	);
	const runner = join(dir, "run.mjs");
	writeFileSync(
		runner,
		`import { callXcsh } from "./client.mjs";
const said = [];
const result = await callXcsh(${JSON.stringify(command)}, "pi", { type: "tool_call", cwd: ${JSON.stringify(dir)}, toolName: "bash", toolCallId: "c1", input: { command: "rm -rf build" } }, ${JSON.stringify(dir)}, (line) => said.push(line));
console.log(JSON.stringify({ result, said }));
`,
	);
	const proc = Bun.spawn(["node", runner], { cwd: dir, env: minimalEnv(home), stdout: "pipe", stderr: "pipe" });
	const timer = setTimeout(() => proc.kill("SIGKILL"), 50_000);
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	clearTimeout(timer);
	if (proc.exitCode !== 0) throw new Error(`node exited ${proc.exitCode}: ${stderr}`);
	return JSON.parse(stdout) as { result: any; said: string[] };
}

/** A bridge command that leaves a mark and answers `answer` (or fails with `exit`). */
function command(dir: string, answer: string, exit = 0): { command: string; ran: () => boolean } {
	const mark = join(dir, `ran-${Math.random().toString(36).slice(2)}`);
	const script = join(dir, `bridge-${Math.random().toString(36).slice(2)}.sh`);
	writeFileSync(script, `#!/bin/sh\ncat >/dev/null\ntouch '${mark}'\nprintf '%s' '${answer}'\nexit ${exit}\n`, { mode: 0o755 });
	return { command: script, ran: () => existsSync(mark) };
}

const answerLine = (stdout: string, verdict: string) => JSON.stringify({ stdout, stderr: ["a hook said hi"], verdict });
const DENY = '{"block":true,"reason":"served deny"}';

describe("node socket client", () => {
	test("its protocol constants are the bridge client's", () => {
		expect(GO_LINE).toBe(BRIDGE_GO_LINE);
		expect([...VERDICTS]).toEqual([...BRIDGE_VERDICTS]);
		expect([...OTLP_VARIABLES]).toEqual([...BRIDGE_OTLP]);
	});

	test(
		"served: the request is the bridge's, the answer comes from the server and no process is started",
		async () => {
			const home = privateHome();
			const fake = fakeServer(home, (c) => {
				c.reply('{"ready":true}');
				c.onGo(() => c.reply(answerLine(DENY, "deny")));
			});
			const bridge = command(tempDir(), '{"block":true,"reason":"spawned"}');
			const { result, said } = await call(home, bridge.command);
			expect(result).toEqual({ answer: { block: true, reason: "served deny" } });
			expect(said).toEqual(["a hook said hi"]);
			expect(bridge.ran()).toBe(false);
			expect(fake.gos).toBe(1);
			expect(fake.requests[0]).toMatchObject({ agent: "pi", version: PACKAGE_VERSION, env: {} });
			expect(JSON.parse(fake.payloads[0] as string)).toMatchObject({ type: "tool_call", input: { command: "rm -rf build" } });
		},
		TIMEOUT_MS,
	);

	test(
		"the server gone after go: a failure (the plugins block), not a second run",
		async () => {
			const home = privateHome();
			fakeServer(home, (c) => {
				c.reply('{"ready":true}');
				c.onGo(() => c.close());
			});
			const bridge = command(tempDir(), "{}");
			const { result } = await call(home, bridge.command);
			expect(result.failure).toContain("closed before the answer");
			expect(bridge.ran()).toBe(false);
		},
		TIMEOUT_MS,
	);

	test(
		"no answer within the deadline after go: a failure",
		async () => {
			const home = privateHome();
			fakeServer(home, (c) => c.reply('{"ready":true}'));
			const bridge = command(tempDir(), "{}");
			const { result } = await call(home, bridge.command, { timeoutSeconds: 1 });
			expect(result.failure).toContain("no reply within 3 s");
			expect(bridge.ran()).toBe(false);
		},
		TIMEOUT_MS,
	);

	for (const [name, line] of [
		["not JSON", "garbage"],
		["no verdict", JSON.stringify({ stdout: "{}", stderr: [] })],
		["an empty deny", answerLine("", "deny")],
		["an empty ask", answerLine("", "ask")],
		["an ask that is only blanks", answerLine(" \n", "ask")],
		["an answer that is not JSON", answerLine("not json", "deny")],
		["an answer that is not an object", answerLine("[1]", "allow")],
	] as const)
		test(
			`a reply after go that is ${name}: a failure`,
			async () => {
				const home = privateHome();
				fakeServer(home, (c) => {
					c.reply('{"ready":true}');
					c.onGo(() => c.reply(line));
				});
				const bridge = command(tempDir(), "{}");
				const { result } = await call(home, bridge.command);
				expect(typeof result.failure).toBe("string");
				expect(result.answer).toBeUndefined();
				expect(bridge.ran()).toBe(false);
			},
			TIMEOUT_MS,
		);

	test(
		"refused, or no ready within 1 s: no go is sent and the bridge command runs instead",
		async () => {
			for (const script of [(c: Parameters<Script>[0]) => c.reply('{"refused":"busy","version":"0.0.1"}'), () => {}] as Script[]) {
				const home = privateHome();
				const fake = fakeServer(home, script);
				const bridge = command(tempDir(), '{"block":true,"reason":"spawned"}');
				const { result } = await call(home, bridge.command);
				expect(result).toEqual({ answer: { block: true, reason: "spawned" } });
				expect(bridge.ran()).toBe(true);
				expect(fake.gos).toBe(0);
				fake.stop();
			}
		},
		TIMEOUT_MS,
	);

	test(
		"a socket folder others may write to: nothing is sent there, the bridge command runs, with a warning",
		async () => {
			const home = privateHome();
			const fake = fakeServer(home, (c) => {
				c.reply('{"ready":true}');
				c.onGo(() => c.reply(answerLine('{"block":false}', "allow")));
			});
			chmodSync(join(home, ".xcsh", "agent"), 0o777);
			const bridge = command(tempDir(), '{"block":true,"reason":"spawned"}');
			const { result, said } = await call(home, bridge.command);
			expect(result).toEqual({ answer: { block: true, reason: "spawned" } });
			expect(fake.requests).toHaveLength(0);
			expect(said.join("\n")).toContain("may be written by other users");
		},
		TIMEOUT_MS,
	);

	test(
		"no server and a bridge command that fails: a failure naming it",
		async () => {
			const home = privateHome();
			const broken = command(tempDir(), "", 3);
			const { result } = await call(home, broken.command);
			expect(result.failure).toContain("exited 3");
			const garbage = command(tempDir(), "not json");
			expect((await call(home, garbage.command)).result.failure).toContain("not JSON");
		},
		TIMEOUT_MS,
	);
});
