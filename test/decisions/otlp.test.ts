/**
 * Decisions to an OpenTelemetry collector: with `OTEL_EXPORTER_OTLP_ENDPOINT` (or the user's settings'
 * `otlp`) a blocked call reaches a loopback OTLP/HTTP receiver as one log record carrying the decision
 * log's fields; a project's settings cannot turn it on; a collector that is down changes no answer.
 * Through both CLIs and through `serve --socket`, with real processes and a real receiver that decodes
 * the OTLP JSON it gets.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { otlpTarget, parseOtlpHeaders } from "../../src/decisions/otlp.ts";
import { answerOf, CLI, fixture } from "../bridges/_bridge.ts";
import { minimalEnv, runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const clis = useClis();

const GUARD = `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (String(event.input.command ?? "").includes("rm -rf")) return { block: true, reason: "GUARD: no rm -rf" };
	});
}
`;

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
interface Received {
	headers: Headers;
	records: Array<{
		severityText?: string | undefined;
		body?: AnyValue | undefined;
		eventName?: string | undefined;
		attributes: Record<string, unknown>;
	}>;
	resource: Record<string, unknown>;
}

const value = (v: AnyValue | undefined): unknown =>
	v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined) ?? v?.doubleValue ?? v?.boolValue;
const attributes = (list: Array<{ key: string; value: AnyValue }> | undefined) =>
	Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));

/** A loopback OTLP/HTTP logs receiver: decodes each JSON export request it gets. */
function receiver() {
	const received: Received[] = [];
	const requests: Headers[] = [];
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			requests.push(request.headers);
			if (new URL(request.url).pathname !== "/v1/logs" || request.method !== "POST") return new Response("no", { status: 404 });
			const body = (await request.json()) as {
				resourceLogs: Array<{
					resource?: { attributes?: [] };
					scopeLogs: Array<{
						logRecords: Array<{
							severityText?: string;
							body?: AnyValue;
							eventName?: string;
							attributes?: Array<{ key: string; value: AnyValue }>;
						}>;
					}>;
				}>;
			};
			for (const rl of body.resourceLogs)
				received.push({
					headers: request.headers,
					resource: attributes(rl.resource?.attributes),
					records: rl.scopeLogs.flatMap((sl) =>
						sl.logRecords.map((r) => ({
							severityText: r.severityText,
							body: r.body,
							eventName: r.eventName,
							attributes: attributes(r.attributes),
						})),
					),
				});
			return Response.json({});
		},
	});
	return {
		url: `http://127.0.0.1:${server.port}`,
		received,
		requests,
		records: () => received.flatMap((r) => r.records),
		stop: () => server.stop(true),
	};
}

const receivers: Array<ReturnType<typeof receiver>> = [];
afterAll(() => {
	for (const r of receivers) r.stop();
});
function newReceiver() {
	const r = receiver();
	receivers.push(r);
	return r;
}

function workspace() {
	const root = tempDir("xcsh-otlp-");
	const home = join(root, "home");
	const project = join(root, "project");
	mkdirSync(join(home, ".xcsh", "agent", "hooks"), { recursive: true });
	mkdirSync(project);
	writeFileSync(join(home, ".xcsh", "agent", "hooks", "guard.ts"), GUARD);
	return { home, project, hook: join(home, ".xcsh", "agent", "hooks", "guard.ts") };
}

const rmPayload = (project: string) => ({
	...fixture("claude", "PreToolUse.Bash.json", project),
	session_id: "sess-otlp-1",
	tool_input: { command: "rm -rf build", description: "t" },
});

describe("otlpTarget", () => {
	const optIn = { otlp: { fromEnvironment: true } };
	test("the user's settings name the collector; the variables count only where they say fromEnvironment", () => {
		expect(otlpTarget({}, {})).toBeUndefined();
		const fromSettings = otlpTarget({ otlp: { endpoint: "https://collector.example:4318", headers: { "x-key": "k" } } }, {});
		expect(fromSettings).toEqual({ url: "https://collector.example:4318/v1/logs", headers: { "x-key": "k" } });
		expect(otlpTarget({ otlp: { endpoint: 7 } }, {})).toBeUndefined();
		// Without the opt-in no variable is read: not an endpoint, not a header, not OTEL_SDK_DISABLED.
		const hostile = {
			OTEL_EXPORTER_OTLP_ENDPOINT: "http://evil:1",
			OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://evil:2",
			OTEL_EXPORTER_OTLP_HEADERS: "x=1",
		};
		expect(otlpTarget({}, hostile)).toBeUndefined();
		expect(otlpTarget({ otlp: { endpoint: "http://mine:4318" } }, { ...hostile, OTEL_SDK_DISABLED: "true" })).toEqual({
			url: "http://mine:4318/v1/logs",
			headers: {},
		});
	});

	test("opted in: env first (the logs URL as given, a base with /v1/logs), then the settings; off when disabled or not http/json", () => {
		expect(otlpTarget(optIn, {})).toBeUndefined();
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" })?.url).toBe("http://127.0.0.1:4318/v1/logs");
		expect(
			otlpTarget(optIn, { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://c:1/custom", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:2" })?.url,
		).toBe("http://c:1/custom");
		expect(otlpTarget({ otlp: { endpoint: "http://mine:1", fromEnvironment: true } }, {})?.url).toBe("http://mine:1/v1/logs");
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:1", OTEL_SDK_DISABLED: "true" })).toBeUndefined();
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:1", OTEL_LOGS_EXPORTER: "none" })).toBeUndefined();
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBeUndefined();
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:1", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" })?.url).toBe(
			"http://h:1/v1/logs",
		);
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "file:///etc/passwd" })).toBeUndefined();
	});

	test("headers: the OTEL form k=v,k2=v2, URL-decoded; malformed pairs skipped", () => {
		expect(parseOtlpHeaders("api-key=a%20b, tenant=t1,bad,=x,k=%E0")).toEqual({ "api-key": "a b", tenant: "t1" });
		expect(otlpTarget(optIn, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://h:1", OTEL_EXPORTER_OTLP_HEADERS: "a=1" })?.headers).toEqual({
			a: "1",
		});
	});
});

for (const cli of clis)
	describe(`decisions to a collector — ${cli.name}`, () => {
		test("a blocked call is one log record at the receiver, with agent, session, event, tool, decision, reason, hook, duration", async () => {
			const w = workspace();
			const otlp = newReceiver();
			writeFileSync(join(w.home, ".xcsh", "agent", "settings.json"), JSON.stringify({ otlp: { fromEnvironment: true } }));
			const run = await runCli(cli, ["bridge", "claude"], {
				cwd: w.project,
				home: w.home,
				stdin: JSON.stringify(rmPayload(w.project)),
				env: minimalEnv(w.home, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_HEADERS: "x-team=sec" }),
				timeoutMs: 30_000,
			});
			const answer = answerOf({ code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr }) as {
				hookSpecificOutput: { permissionDecision: string };
			};
			expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
			const records = otlp.records();
			expect(records).toHaveLength(1);
			const [record] = records;
			expect(record?.severityText).toBe("WARN");
			expect(record?.eventName).toBe("xcsh.decision");
			expect(record?.attributes).toMatchObject({
				"xcsh.agent": "claude",
				"session.id": "sess-otlp-1",
				"xcsh.session": "sess-otlp-1",
				"xcsh.event": "PreToolUse",
				"xcsh.tool": "bash",
				"xcsh.decision": "deny",
				"xcsh.reason": expect.stringContaining("GUARD: no rm -rf"),
			});
			expect(typeof record?.attributes["xcsh.duration_ms"]).toBe("number");
			expect(String(record?.attributes["xcsh.hook"])).toEndWith("guard.ts");
			expect(otlp.received[0]?.resource["service.name"]).toBe("xcsh-hooks");
			expect(otlp.received[0]?.headers.get("x-team")).toBe("sec");
		}, 60_000);

		test("the user's settings name the collector; a project's settings cannot; a collector that is down changes no answer", async () => {
			const w = workspace();
			const otlp = newReceiver();
			const call = (env: Record<string, string> = {}) =>
				runCli(cli, ["bridge", "claude"], {
					cwd: w.project,
					home: w.home,
					stdin: JSON.stringify(rmPayload(w.project)),
					env: minimalEnv(w.home, env),
					timeoutMs: 30_000,
				});
			const denies = (run: { code: number | null; stdout: string; stderr: string }) =>
				(
					answerOf({ code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr }) as {
						hookSpecificOutput: { permissionDecision: string };
					}
				).hookSpecificOutput.permissionDecision === "deny";

			mkdirSync(join(w.project, ".xcsh"), { recursive: true });
			writeFileSync(join(w.project, ".xcsh", "settings.json"), JSON.stringify({ otlp: { endpoint: otlp.url } }));
			expect(denies(await call())).toBe(true);
			expect(otlp.records()).toHaveLength(0);

			writeFileSync(join(w.home, ".xcsh", "agent", "settings.json"), JSON.stringify({ otlp: { endpoint: otlp.url }, decisionLog: false }));
			expect(denies(await call())).toBe(true);
			expect(otlp.records().map((r) => r.attributes["xcsh.decision"])).toEqual(["deny"]);

			const down = newReceiver();
			down.stop();
			writeFileSync(join(w.home, ".xcsh", "agent", "settings.json"), JSON.stringify({ otlp: { endpoint: down.url } }));
			const run = await call();
			expect(denies(run)).toBe(true);
			expect(run.stderr).not.toContain("Error");
		}, 90_000);
	});

for (const cli of clis)
	describe(`a project's environment cannot redirect the decision log — ${cli.name}`, () => {
		/** What a cloned repository can put in the agent's environment (Claude Code `env`, Gemini CLI `.env`). */
		const hostileEnv = (url: string): Record<string, string> => ({
			OTEL_EXPORTER_OTLP_ENDPOINT: url,
			OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `${url}/v1/logs`,
			OTEL_EXPORTER_OTLP_HEADERS: "x-injected=1",
			OTEL_EXPORTER_OTLP_LOGS_HEADERS: "x-injected-logs=1",
			OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
			OTEL_EXPORTER_OTLP_LOGS_COMPRESSION: "gzip",
			OTEL_SDK_DISABLED: "true",
		});
		const call = (w: ReturnType<typeof workspace>, env: Record<string, string>) =>
			runCli(cli, ["bridge", "claude"], {
				cwd: w.project,
				home: w.home,
				stdin: JSON.stringify(rmPayload(w.project)),
				env: minimalEnv(w.home, env),
				timeoutMs: 30_000,
			});
		const decision = (run: { code: number | null; stdout: string; stderr: string }) =>
			(
				answerOf({ code: run.code ?? -1, stdout: run.stdout, stderr: run.stderr }) as {
					hookSpecificOutput: { permissionDecision: string };
				}
			).hookSpecificOutput.permissionDecision;
		const userSettings = (w: ReturnType<typeof workspace>, settings: unknown) =>
			writeFileSync(join(w.home, ".xcsh", "agent", "settings.json"), JSON.stringify(settings));

		test("the OTEL_EXPORTER_OTLP_* variables alone send nothing anywhere", async () => {
			const w = workspace();
			const theirs = newReceiver();
			const { OTEL_SDK_DISABLED: _off, ...env } = hostileEnv(theirs.url);
			expect(decision(await call(w, env))).toBe("deny");
			// The bridge flushes its queue before it exits: whatever it sent has arrived by now.
			expect(theirs.requests).toHaveLength(0);
		}, 60_000);

		test("with the user's endpoint, the variables neither redirect, silence, add headers nor change the encoding", async () => {
			const w = workspace();
			const theirs = newReceiver();
			const mine = newReceiver();
			userSettings(w, { otlp: { endpoint: mine.url, headers: { "x-mine": "m" } } });
			expect(decision(await call(w, hostileEnv(theirs.url)))).toBe("deny");
			expect(theirs.requests).toHaveLength(0);
			expect(mine.records().map((r) => r.attributes["xcsh.decision"])).toEqual(["deny"]);
			const headers = mine.requests[0] as Headers;
			expect(headers.get("x-mine")).toBe("m");
			expect(headers.get("x-injected")).toBeNull();
			expect(headers.get("x-injected-logs")).toBeNull();
			expect(headers.get("content-encoding")).toBeNull();
		}, 60_000);

		test('the user\'s "fromEnvironment": true honours the variables', async () => {
			const w = workspace();
			const named = newReceiver();
			userSettings(w, { otlp: { fromEnvironment: true } });
			const {
				OTEL_SDK_DISABLED: _off,
				OTEL_EXPORTER_OTLP_COMPRESSION: _c,
				OTEL_EXPORTER_OTLP_LOGS_COMPRESSION: _lc,
				...env
			} = hostileEnv(named.url);
			expect(decision(await call(w, env))).toBe("deny");
			expect(named.records().map((r) => r.attributes["xcsh.decision"])).toEqual(["deny"]);
			expect(named.received[0]?.headers.get("x-injected")).toBe("1");
			expect(named.received[0]?.headers.get("x-injected-logs")).toBe("1");
		}, 60_000);

		test("a project's settings name no collector, with or without fromEnvironment", async () => {
			const w = workspace();
			const theirs = newReceiver();
			mkdirSync(join(w.project, ".xcsh"), { recursive: true });
			writeFileSync(join(w.project, ".xcsh", "settings.json"), JSON.stringify({ otlp: { endpoint: theirs.url, fromEnvironment: true } }));
			expect(decision(await call(w, hostileEnv(theirs.url)))).toBe("deny");
			expect(theirs.requests).toHaveLength(0);
		}, 60_000);
	});

describe("decisions to a collector through serve --socket", () => {
	const servers: Bun.Subprocess[] = [];
	afterEach(async () => {
		for (const server of servers.splice(0)) {
			server.kill("SIGTERM");
			await server.exited;
		}
	}, 60_000);

	test("a forwarded call is exported by the server, to the collector the calling agent's variables name", async () => {
		const w = workspace();
		const otlp = newReceiver();
		writeFileSync(join(w.home, ".xcsh", "agent", "settings.json"), JSON.stringify({ otlp: { fromEnvironment: true } }));
		const server = Bun.spawn([process.execPath, CLI, "serve", "--socket"], {
			cwd: w.project,
			env: minimalEnv(w.home),
			stdin: "ignore",
			stdout: "pipe",
			stderr: "pipe",
		});
		servers.push(server);
		const { value: ready } = await server.stdout.getReader().read();
		expect(new TextDecoder().decode(ready)).toContain('"socket"');
		const proc = Bun.spawn([process.execPath, CLI, "bridge", "claude"], {
			cwd: w.project,
			env: minimalEnv(w.home, { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, XCSH_HOOKS_PROFILE: "1" }),
			stdin: new TextEncoder().encode(JSON.stringify(rmPayload(w.project))),
			stdout: "pipe",
			stderr: "pipe",
		});
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		expect(stderr).toContain('["forwarded",');
		expect(
			(answerOf({ code, stdout, stderr }) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision,
		).toBe("deny");
		// The server batches: the record arrives within its export delay (bounded wait, not a timing assertion).
		for (let i = 0; i < 100 && otlp.records().length === 0; i++) await Bun.sleep(50);
		expect(otlp.records().map((r) => [r.attributes["xcsh.decision"], r.attributes["session.id"]])).toEqual([["deny", "sess-otlp-1"]]);
	}, 60_000);
});
