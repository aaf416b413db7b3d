/**
 * pi: `install pi` writes one extension file that forwards pi's events to `xcsh-hooks bridge pi`.
 * The written file runs under real Node in a small stand-in for pi's extension runner (fake-pi.mjs,
 * which calls the handlers the way pi 0.73.1 does), against real hook files and both CLIs. It closes
 * the rows of the xcsh-vs-pi difference table (docs/agents/pi.md): `pi.logger`/`pi.typebox`/`pi.pi`
 * exist, a returned `{input}` is applied (in place, as pi needs), an unknown event name and an invalid
 * result block, `isError` is not applied; and it fails closed where pi fails open.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type Cli, minimalEnv, runCli, useClis } from "../../faults/_cli.ts";
import { startSocketServer, stopServers } from "../../faults/_socket.ts";
import { privateHome, tempDir, writeFiles } from "../../faults/_fixtures.ts";
import { extensionSource } from "../../../src/agents/pi/extension.ts";

const TIMEOUT_MS = 90_000;
const FAKE_PI = join(import.meta.dir, "fake-pi.mjs");
const EXTENSION = ".pi/extensions/xcsh-hooks.js";

interface Seen {
	loadError?: string;
	registered: string[];
	events: Array<{
		type: string;
		blocked?: string;
		input?: Record<string, unknown>;
		sameObject?: boolean;
		result?: any;
		results?: any[];
		messages?: any[];
	}>;
	/** What the extension wrote to stderr (pi without a UI shows its warnings there). */
	stderr: string;
}

/** Runs the written extension in the fake pi host under Node, emitting `events`. */
async function runPi(extension: string, cwd: string, home: string, events: unknown[]): Promise<Seen> {
	const proc = Bun.spawn(["node", FAKE_PI, extension, cwd], {
		cwd,
		env: minimalEnv(home),
		stdin: new TextEncoder().encode(JSON.stringify(events)),
		stdout: "pipe",
		stderr: "pipe",
	});
	const timer = setTimeout(() => proc.kill("SIGKILL"), 80_000);
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	clearTimeout(timer);
	if (proc.exitCode !== 0) throw new Error(`fake pi exited ${proc.exitCode}: ${stderr}`);
	return { ...(JSON.parse(stdout) as Omit<Seen, "stderr">), stderr };
}

const bash = (id: string, command: string) => ({
	type: "tool_call",
	toolName: "bash",
	toolCallId: id,
	input: { command, description: "kept" },
});

async function ok(cli: Cli, args: string[], cwd: string, home: string): Promise<string> {
	const run = await runCli(cli, args, { cwd, home, timeoutMs: 30_000 });
	if (run.code !== 0) throw new Error(`${args.join(" ")}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
	return run.stdout + run.stderr;
}

const USER_HOOKS = {
	".xcsh/agent/hooks/rewrite.ts": `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (event.input.command === "echo original") return { input: { command: "echo rewritten" } };
	});
}
`,
	".xcsh/agent/hooks/api.ts": `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (event.input.command !== "api-probe") return;
		pi.logger.info("probe");
		const schema = pi.typebox.Type.Object({});
		return { block: true, reason: "api " + typeof pi.logger.info + " " + typeof schema + " " + typeof pi.pi };
	});
}
`,
	".xcsh/agent/hooks/redact.ts": `export default function (pi) {
	pi.on("tool_result", (event) => {
		const text = event.content.map((c) => c.text ?? "").join("");
		if (!text.includes("sk-live-")) return;
		return { content: [{ type: "text", text: text.replace(/sk-live-[a-z0-9]+/g, "***") }], isError: true };
	});
	pi.on("before_agent_start", () => ({ message: { customType: "note", content: "CONTEXT-MARKER-7", display: true } }));
}
`,
};

describe("pi extension", () => {
	const clis = useClis();
	for (const cli of clis) {
		describe(cli.name, () => {
			test(
				"install pi writes one marked extension (0644) that loads in Node; uninstall removes exactly it",
				async () => {
					const home = privateHome();
					const proj = tempDir("xcsh-pi-");
					writeFiles(proj, { ".pi/extensions/mine.ts": "export default function () {}\n" });
					const dry = await ok(cli, ["install", "pi", "--dry-run"], proj, home);
					expect(dry).toContain("xcsh-hooks.js");
					expect(existsSync(join(proj, EXTENSION))).toBe(false);
					await ok(cli, ["install", "pi"], proj, home);
					const text = readFileSync(join(proj, EXTENSION), "utf8");
					expect(text).toContain("Written by `xcsh-hooks install pi`");
					expect(text).toContain("bridge pi --installed-by=xcsh-hooks");
					expect(statSync(join(proj, EXTENSION)).mode & 0o777).toBe(0o644);
					const seen = await runPi(join(proj, EXTENSION), proj, home, []);
					expect(seen.loadError).toBeUndefined();
					expect(seen.registered).toEqual(expect.arrayContaining(["tool_call", "tool_result", "before_agent_start", "session_start"]));
					await ok(cli, ["install", "pi", "--user"], proj, home);
					expect(existsSync(join(home, ".pi/agent/extensions/xcsh-hooks.js"))).toBe(true);
					await ok(cli, ["uninstall", "pi"], proj, home);
					await ok(cli, ["uninstall", "pi", "--user"], proj, home);
					expect(readdirSync(join(proj, ".pi/extensions"))).toEqual(["mine.ts"]);
					expect(existsSync(join(home, ".pi/agent/extensions/xcsh-hooks.js"))).toBe(false);
				},
				TIMEOUT_MS,
			);

			test(
				"install pi refuses a file of the user's at the extension's name and leaves it as it was",
				async () => {
					const home = privateHome();
					const proj = tempDir("xcsh-pi-");
					writeFiles(proj, { [EXTENSION]: "export default function () {}\n" });
					const run = await runCli(cli, ["install", "pi"], { cwd: proj, home, timeoutMs: 30_000 });
					expect(run.code).not.toBe(0);
					expect(run.stderr).toContain("not ours");
					expect(readFileSync(join(proj, EXTENSION), "utf8")).toBe("export default function () {}\n");
					await ok(cli, ["uninstall", "pi"], proj, home);
					expect(readFileSync(join(proj, EXTENSION), "utf8")).toBe("export default function () {}\n");
				},
				TIMEOUT_MS,
			);

			test(
				"with serve --socket running, the extension's calls are answered by the server's loaded hooks",
				async () => {
					const home = privateHome();
					writeFiles(home, {
						".xcsh/agent/hooks/where.ts": `export default function (pi) {
	pi.on("tool_call", () => ({ block: true, reason: process.argv.includes("serve") ? "ran in serve" : "ran in bridge" }));
}
`,
					});
					const proj = tempDir("xcsh-pi-");
					await ok(cli, ["install", "pi"], proj, home);
					const local = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi")]);
					expect(local.events[0]?.blocked).toStartWith("ran in bridge");
					await startSocketServer(cli, home, proj);
					try {
						const served = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi")]);
						expect(served.events[0]?.blocked).toStartWith("ran in serve");
					} finally {
						await stopServers();
					}
				},
				TIMEOUT_MS,
			);

			test(
				"init guard + install pi: rm -rf blocked with the guard's reason, a harmless call runs, the call's input object kept",
				async () => {
					const home = privateHome();
					const proj = tempDir("xcsh-pi-");
					writeFiles(proj, { "src/keep.txt": "keep\n" });
					await ok(cli, ["init", "guard"], proj, home);
					await ok(cli, ["install", "pi"], proj, home);
					const seen = await runPi(join(proj, EXTENSION), proj, home, [bash("call_1", "rm -rf src"), bash("call_2", "echo harmless")]);
					expect(seen.events[0]?.blocked).toContain("recursive delete");
					expect(seen.events[1]?.blocked).toBeUndefined();
					expect(seen.events[1]?.input).toEqual({ command: "echo harmless", description: "kept" });
				},
				TIMEOUT_MS,
			);

			test(
				"the difference table closed: pi.logger/typebox/pi exist, {input} rewrites apply in place, redaction, context, isError not applied",
				async () => {
					const home = privateHome();
					writeFiles(home, USER_HOOKS);
					const proj = tempDir("xcsh-pi-");
					await ok(cli, ["install", "pi"], proj, home);
					const seen = await runPi(join(proj, EXTENSION), proj, home, [
						bash("c1", "api-probe"),
						bash("c2", "echo original"),
						{
							type: "tool_result",
							toolName: "bash",
							toolCallId: "c3",
							input: { command: "echo x" },
							content: [{ type: "text", text: "OUT API_KEY=sk-live-123\n" }],
							isError: false,
						},
						{ type: "before_agent_start", prompt: "hi", systemPrompt: "sys", images: [] },
					]);
					const [api, rewrite, result, start] = seen.events;
					expect(api?.blocked).toStartWith("api function object object");
					expect(rewrite?.blocked).toBeUndefined();
					expect(rewrite?.sameObject).toBe(true);
					expect(rewrite?.input).toEqual({ command: "echo rewritten", description: "kept" });
					expect(result?.result.content).toEqual([{ type: "text", text: "OUT API_KEY=***\n" }]);
					expect(JSON.stringify(result)).not.toContain("sk-live-123");
					expect(result?.result.isError).toBe(false);
					expect(JSON.stringify(start?.results)).toContain("CONTEXT-MARKER-7");
				},
				TIMEOUT_MS,
			);

			test(
				"an unknown event name is a load error that blocks every tool call, naming the hook; an invalid result blocks",
				async () => {
					const typo = privateHome();
					writeFiles(typo, { ".xcsh/agent/hooks/typo.ts": `export default function (pi) { pi.on("tool_cal", () => {}); }\n` });
					const invalid = privateHome();
					writeFiles(invalid, {
						".xcsh/agent/hooks/invalid.ts": `export default function (pi) { pi.on("tool_call", () => ({ blok: true })); }\n`,
					});
					for (const [home, want] of [
						[typo, "typo.ts"],
						[invalid, "invalid.ts"],
					] as const) {
						const proj = tempDir("xcsh-pi-");
						await ok(cli, ["install", "pi"], proj, home);
						const seen = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo harmless")]);
						expect(seen.events[0]?.blocked).toContain(want);
					}
				},
				TIMEOUT_MS,
			);

			test(
				"context: a hook's messages replace pi's, pi's own fields kept, unseen messages in place; unchanged when no hook changes them",
				async () => {
					const home = privateHome();
					writeFiles(home, {
						".xcsh/agent/hooks/ctx.ts": `export default function (pi) {
			pi.on("context", (event) => {
				if (!JSON.stringify(event.messages).includes("sk-live-")) return;
				const kept = event.messages
					.filter((m) => m.role !== "toolResult")
					.map((m) => (m.role === "user" ? { ...m, content: [{ type: "text", text: m.content[0].text.replace(/sk-live-[a-z0-9]+/g, "***") }] } : m));
				return { messages: [...kept, { role: "custom", customType: "note", content: "ADDED-9", display: false }] };
			});
		}
		`,
					});
					const proj = tempDir("xcsh-pi-");
					await ok(cli, ["install", "pi"], proj, home);
					const assistant = {
						role: "assistant",
						content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } }],
						api: "openai-completions",
						provider: "mock",
						usage: { input: 10 },
						stopReason: "toolUse",
						timestamp: 2,
					};
					const messages = [
						{ role: "user", content: [{ type: "text", text: "key sk-live-123" }], timestamp: 1 },
						assistant,
						{
							role: "toolResult",
							toolCallId: "call_1",
							toolName: "bash",
							content: [{ type: "text", text: "out" }],
							isError: false,
							timestamp: 3,
						},
						{ role: "bashExecution", command: "pwd", output: "/p", timestamp: 4 },
					];
					const plain = [{ role: "user", content: [{ type: "text", text: "nothing secret" }], timestamp: 1 }];
					const seen = await runPi(join(proj, EXTENSION), proj, home, [
						{ type: "context", messages },
						{ type: "context", messages: plain },
					]);
					expect(seen.events[0]?.messages).toEqual([
						{ role: "user", content: [{ type: "text", text: "key ***" }], timestamp: 1 },
						assistant,
						messages[3],
						{ role: "custom", customType: "note", content: "ADDED-9", display: false, timestamp: expect.any(Number) },
					]);
					expect(seen.events[1]?.messages).toEqual(plain);
				},
				TIMEOUT_MS,
			);

			test(
				"fails closed: a missing executable, an answer that is not JSON, a non-zero exit block the tool call with the reason",
				async () => {
					const home = privateHome();
					for (const [command, want] of [
						["/nonexistent/xcsh-hooks", "exited 127"],
						["echo garbage; :", "not JSON: garbage"],
						["exit 3; :", "exited 3"],
					] as const) {
						const proj = tempDir("xcsh-pi-");
						await ok(cli, ["install", "pi", "--command", command], proj, home);
						const seen = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo harmless")]);
						expect(seen.loadError).toBeUndefined();
						expect(seen.events[0]?.blocked).toContain(want);
					}
				},
				TIMEOUT_MS,
			);
		});
	}

	test(
		"served: with the hook server running, the extension's calls go over its socket and start no process; once it is gone, the bridge runs",
		async () => {
			const cli = clis[0];
			if (!cli) throw new Error("no CLI");
			const home = privateHome();
			writeFiles(home, {
				".xcsh/agent/hooks/where.ts": `export default function (pi) {
	pi.on("tool_call", () => ({ block: true, reason: process.argv.includes("serve") ? "ran in serve" : "ran in bridge" }));
}
`,
			});
			const proj = tempDir("xcsh-pi-");
			const mark = join(proj, "spawned");
			const spawned = `touch '${mark}'; cat >/dev/null; printf '%s' '{"block":true,"reason":"spawned"}'`;
			writeFiles(proj, { [EXTENSION]: extensionSource({ tool_call: spawned }, undefined, true) });
			const server = await startSocketServer(cli, home, proj);
			try {
				const served = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi"), bash("c2", "echo again")]);
				expect(served.events.map((e) => e.blocked?.slice(0, 12))).toEqual(["ran in serve", "ran in serve"]);
				expect(existsSync(mark)).toBe(false);
			} finally {
				await stopServers();
			}
			await server.exited;
			const alone = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi")]);
			expect(alone.events[0]?.blocked).toBe("spawned");
			expect(existsSync(mark)).toBe(true);
		},
		TIMEOUT_MS,
	);

	test(
		"a hook slower than the settings' hookTimeoutMs blocks the call, naming the timeout (pi has no handler timeout)",
		async () => {
			const home = privateHome({ hookTimeoutMs: 300 });
			writeFiles(home, {
				".xcsh/agent/hooks/slow.ts": `export default function (pi) { pi.on("tool_call", () => new Promise(() => {})); }\n`,
			});
			const proj = tempDir("xcsh-pi-");
			const command = [
				process.execPath,
				"--no-env-file",
				"--config=/dev/null",
				join(import.meta.dir, "..", "..", "..", "src", "cli.ts"),
				"bridge",
				"pi",
			].join(" ");
			writeFiles(proj, { [EXTENSION]: extensionSource({ tool_call: command }) });
			const seen = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi")]);
			expect(seen.events[0]?.blocked).toContain("slow.ts");
			expect(seen.events[0]?.blocked).toMatch(/time/i);
		},
		TIMEOUT_MS,
	);

	test(
		"a call that outlives the extension's own deadline is killed with all it started, and the tool call blocked",
		async () => {
			const home = privateHome();
			const proj = tempDir("xcsh-pi-");
			const late = join(proj, "LATE");
			writeFiles(proj, { [EXTENSION]: extensionSource({ tool_call: `sleep 2; touch ${late}` }, 500) });
			const seen = await runPi(join(proj, EXTENSION), proj, home, [bash("c1", "echo hi")]);
			expect(seen.events[0]?.blocked).toContain("no answer within 0.5 s");
			// What the call started was killed with it: the command's second half never runs.
			await Bun.sleep(3000);
			expect(existsSync(late)).toBe(false);
		},
		TIMEOUT_MS,
	);

	test(
		"context is forwarded only while a hook handles it (the session_start answer says which events); a failed call leaves the messages, with a warning",
		async () => {
			const bridge = [
				process.execPath,
				"--no-env-file",
				"--config=/dev/null",
				join(import.meta.dir, "..", "..", "..", "src", "cli.ts"),
				"bridge",
				"pi",
			].join(" ");
			const events = [
				{ type: "session_start", reason: "startup" },
				{ type: "context", messages: [{ role: "user", content: "one", timestamp: 1 }] },
				{ type: "context", messages: [{ role: "user", content: "two", timestamp: 2 }] },
			];
			const contextCalls = async (hooks: Record<string, string>) => {
				const home = privateHome();
				writeFiles(home, hooks);
				const proj = tempDir("xcsh-pi-");
				const log = join(proj, "calls.log");
				const command = `tee -a ${log} | ${bridge}`;
				writeFiles(proj, { [EXTENSION]: extensionSource(Object.fromEntries(["session_start", "context"].map((e) => [e, command]))) });
				const seen = await runPi(join(proj, EXTENSION), proj, home, events);
				return { seen, calls: readFileSync(log, "utf8").split('"type":"context"').length - 1 };
			};
			const guardOnly = await contextCalls({
				".xcsh/agent/hooks/g.ts": `export default function (pi) { pi.on("tool_call", () => {}); }\n`,
			});
			expect(guardOnly.calls).toBe(0);
			expect(guardOnly.seen.events[1]?.messages).toEqual(events[1]?.messages);
			const listening = await contextCalls({
				".xcsh/agent/hooks/c.ts": `export default function (pi) { pi.on("context", (e) => ({ messages: [...e.messages, { role: "user", content: "SEEN" }] })); }\n`,
			});
			expect(listening.calls).toBe(2);
			expect(listening.seen.events[2]?.messages?.map((m) => m.content)).toEqual(["two", "SEEN"]);

			// A bridge that cannot answer: session_start says nothing, so context is forwarded, fails, and pi keeps its messages.
			const home = privateHome();
			const proj = tempDir("xcsh-pi-");
			writeFiles(proj, { [EXTENSION]: extensionSource({ session_start: "exit 3; :", context: "exit 3; :" }) });
			const failed = await runPi(join(proj, EXTENSION), proj, home, events);
			expect(failed.events[1]?.messages).toEqual(events[1]?.messages);
			expect(failed.events[1]?.results).toBeUndefined();
			expect(failed.stderr).toContain("xcsh-hooks context: xcsh-hooks exited 3");
		},
		TIMEOUT_MS,
	);
});
