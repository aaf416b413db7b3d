import { afterEach, describe, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HttpServer, isLoopback, parseListenAddress, startHttpServer } from "../../src/serve/http.ts";
import { tempDir, writeFiles } from "../_helpers.ts";
import { fileLines, waitFor } from "./_hook.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");
const TOKEN = "test-token-0123456789";

/** A guard that records each call it sees in `log` and blocks commands containing `word`. */
function guard(word: string, log: string): string {
	return `import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("tool_call", (event) => {
		appendFileSync(${JSON.stringify(log)}, String(event.input.command) + "\\n");
		if (String(event.input.command).includes(${JSON.stringify(word)})) return { block: true, reason: "no ${word} here" };
	});
}
`;
}

/** A Claude Code PreToolUse payload for `command`, in `cwd`. */
function preToolUse(cwd: string, command: string): string {
	return JSON.stringify({
		session_id: "http-test-session",
		transcript_path: join(cwd, "transcript.jsonl"),
		cwd,
		hook_event_name: "PreToolUse",
		tool_name: "Bash",
		tool_input: { command, description: "test" },
		tool_use_id: "toolu_1",
	});
}

let server: HttpServer | undefined;
afterEach(async () => {
	await server?.stop();
	server = undefined;
});

function project(word = "rm") {
	const dir = tempDir("xcsh-http-");
	const log = join(dir, "calls.log");
	writeFiles(dir, { "guard.ts": guard(word, log) });
	return { dir, hook: join(dir, "guard.ts"), log };
}

const post = (url: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
	fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });

describe("serve --http (real server on 127.0.0.1, port 0)", () => {
	test("401 without a token or with a wrong one, and nothing runs", async () => {
		const p = project();
		server = startHttpServer({ hostname: "127.0.0.1", port: 0, token: TOKEN, hookPaths: [p.hook], discovery: false, watch: false });
		const attempts: Record<string, string>[] = [
			{},
			{ authorization: "Bearer wrong" },
			{ authorization: TOKEN },
			{ authorization: `Bearer ${TOKEN}x` },
		];
		for (const headers of attempts) {
			const response = await post(server.url, preToolUse(p.dir, "rm -rf build"), headers);
			expect(response.status).toBe(401);
			expect(response.headers.get("www-authenticate")).toContain("Bearer");
		}
		expect(await fileLines(p.log)).toEqual([]); // no hook was even loaded
		expect(server.pool.size()).toBe(0);
	}, 60_000);

	test("a deny and an allow, in the body bridge claude prints", async () => {
		const p = project();
		server = startHttpServer({ hostname: "127.0.0.1", port: 0, token: TOKEN, hookPaths: [p.hook], discovery: false, watch: false });
		const denied = await post(server.url, preToolUse(p.dir, "rm -rf build"));
		expect(denied.status).toBe(200);
		expect(await denied.json()).toEqual({
			hookSpecificOutput: {
				hookEventName: "PreToolUse",
				permissionDecision: "deny",
				permissionDecisionReason: "no rm here [xcsh-hooks: guard.ts]",
			},
		});
		const allowed = await post(`${server.url}claude`, preToolUse(p.dir, "ls"));
		expect(allowed.status).toBe(200);
		expect(await allowed.text()).toBe(""); // no opinion: the tool runs
		expect(await fileLines(p.log)).toEqual(["rm -rf build", "ls"]);
		expect(server.pool.size()).toBe(1); // one host, loaded once, for both requests
		// The same answer as the one-process-per-call bridge.
		const bridge = Bun.spawnSync(["bun", CLI, "bridge", "claude", "--no-discovery", "--hook", p.hook], {
			env: process.env,
			stdin: Buffer.from(preToolUse(p.dir, "rm -rf build")),
		});
		expect(bridge.stdout.toString().trim()).toBe(JSON.stringify(await (await post(server.url, preToolUse(p.dir, "rm -rf build"))).json()));
	}, 60_000);

	test("a bad payload on a guard event is a deny, an unknown path 404, a GET 405", async () => {
		const p = project();
		server = startHttpServer({ hostname: "127.0.0.1", port: 0, token: TOKEN, hookPaths: [p.hook], discovery: false, watch: false });
		const bad = await post(server.url, "{not json");
		expect(bad.status).toBe(200);
		expect(((await bad.json()) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe(
			"deny",
		);
		expect((await post(`${server.url}nosuch`, preToolUse(p.dir, "ls"))).status).toBe(404);
		expect((await fetch(server.url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(405);
	}, 60_000);

	test("hooks reload when their file changes", async () => {
		const p = project("rm");
		server = startHttpServer({ hostname: "127.0.0.1", port: 0, token: TOKEN, hookPaths: [p.hook], discovery: false, debounceMs: 20 });
		const decision = async (command: string) => {
			const text = await (await post(server?.url as string, preToolUse(p.dir, command))).text();
			return text ? JSON.parse(text).hookSpecificOutput.permissionDecision : "allow";
		};
		expect(await decision("curl x")).toBe("allow");
		writeFileSync(p.hook, guard("curl", p.log));
		await waitFor(async () => ((await decision("curl x")) === "deny" ? true : undefined), 10_000, "the edited hook to answer");
		expect(await decision("rm -rf build")).toBe("allow");
	}, 60_000);
});

describe("serve --http addresses", () => {
	test("loopback only, HOST:PORT parsed", () => {
		for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]) expect(isLoopback(host)).toBe(true);
		for (const host of ["0.0.0.0", "192.168.1.2", "::", "example.com", "128.0.0.1"]) expect(isLoopback(host)).toBe(false);
		expect(parseListenAddress("127.0.0.1:0")).toEqual({ hostname: "127.0.0.1", port: 0 });
		expect(parseListenAddress("[::1]:8377")).toEqual({ hostname: "::1", port: 8377 });
		expect(() => parseListenAddress("8377")).toThrow("expected HOST:PORT");
	}, 60_000);

	test("the CLI refuses a remote bind without --allow-remote; with loopback it creates a 0600 token and answers", async () => {
		const home = tempDir("xcsh-http-home-");
		const env = { ...process.env, HOME: home, USERPROFILE: home };
		const refused = Bun.spawnSync(["bun", CLI, "serve", "--http", "0.0.0.0:0", "--no-discovery"], { env, timeout: 15_000 });
		expect(refused.exitCode).toBe(1);
		expect(refused.stderr.toString()).toContain("not a loopback address");
		expect(refused.stderr.toString()).toContain("--allow-remote");

		const p = project();
		const proc = Bun.spawn(["bun", CLI, "serve", "--http", "127.0.0.1:0", "--no-discovery", "--hook", p.hook], {
			env,
			stdout: "pipe",
			stderr: "pipe",
		});
		const kill = setTimeout(() => proc.kill("SIGKILL"), 20_000);
		try {
			const reader = proc.stdout.getReader();
			const { value } = await reader.read();
			const ready = JSON.parse(new TextDecoder().decode(value).split("\n")[0] as string);
			expect(ready.method).toBe("ready");
			const tokenFile = join(home, ".xcsh", "agent", "http-token");
			expect(ready.params.tokenFile).toBe(tokenFile);
			expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
			const token = (await Bun.file(tokenFile).text()).trim();
			expect(token.length).toBeGreaterThanOrEqual(40);
			expect((await post(ready.params.url, preToolUse(p.dir, "ls"), {})).status).toBe(401);
			const denied = await post(ready.params.url, preToolUse(p.dir, "rm -rf build"), { authorization: `Bearer ${token}` });
			expect(((await denied.json()) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe(
				"deny",
			);
			proc.kill("SIGTERM");
			expect(await proc.exited).toBe(0);
		} finally {
			clearTimeout(kill);
			proc.kill("SIGKILL");
		}
	}, 60_000);
});
