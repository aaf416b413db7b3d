/**
 * OpenClaw: `install openclaw` writes a native plugin folder and registers it in `~/.openclaw/openclaw.json`
 * byte-exactly. The written plugin runs under real Node in a small stand-in for OpenClaw's plugin host
 * (fake-openclaw.mjs, which calls the hooks the way OpenClaw 2026.9.6 does) on payloads captured from the
 * real client (fixtures/events.json), against real hook files and both CLIs: `exec` judged as `bash`, the
 * `tool_call` wrapper and the inner call both judged, a subagent named from its session key, a rewrite
 * merged as OpenClaw merges, redaction through the tool-result middleware, context through
 * `before_prompt_build`, and every failure a block.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, minimalEnv, runCli, useClis } from "../../faults/_cli.ts";
import { startSocketServer, stopServers } from "../../faults/_socket.ts";
import { privateHome, tempDir, writeFiles } from "../../faults/_fixtures.ts";
import { packageFiles, pluginSource } from "../../../src/agents/openclaw/plugin.ts";

const TIMEOUT_MS = 120_000;
const FAKE = join(import.meta.dir, "fake-openclaw.mjs");
const EVENTS = JSON.parse(readFileSync(join(import.meta.dir, "fixtures", "events.json"), "utf8")) as Record<
	string,
	{ hook: string; event: any; ctx: any }
>;
const USER_FOLDER = ".xcsh/agent/openclaw-plugin";

/** An event of the fixtures with its tool call's command (or params) replaced. */
function withCommand(name: "inner" | "outer" | "subagent", command: string, extra: Record<string, unknown> = {}) {
	const e = structuredClone(EVENTS[name] as { hook: string; event: any; ctx: any });
	if (e.event.toolName === "tool_call") e.event.params.args = { command, ...extra };
	else e.event.params = { command, ...extra };
	return e;
}

async function runHost(folder: string, workspace: string, home: string, events: unknown[]): Promise<any> {
	// The captures' workspace was /home/user/proj: here it is the test's project.
	const stdin = JSON.stringify(events).replaceAll("/home/user/proj", workspace);
	const proc = Bun.spawn(["node", FAKE, folder, workspace], {
		cwd: workspace,
		env: minimalEnv(home),
		stdin: new TextEncoder().encode(stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const timer = setTimeout(() => proc.kill("SIGKILL"), 100_000);
	const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
	await proc.exited;
	clearTimeout(timer);
	if (proc.exitCode !== 0) throw new Error(`fake openclaw exited ${proc.exitCode}: ${stderr}`);
	return { ...JSON.parse(stdout), stderr };
}

async function ok(cli: Cli, args: string[], cwd: string, home: string): Promise<string> {
	const run = await runCli(cli, args, { cwd, home, timeoutMs: 30_000 });
	if (run.code !== 0) throw new Error(`${args.join(" ")}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
	return run.stdout + run.stderr;
}

const HOOKS = {
	".xcsh/agent/hooks/suite.ts": `export default function (pi) {
	pi.on("tool_call", (event, ctx) => {
		const who = ctx.agent?.subagent ? " by subagent " + ctx.agent.subagent.id : "";
		if (event.toolName === "bash" && event.input.command.startsWith("rm -rf")) return { block: true, reason: "NO-RM " + event.toolName + who };
		if (event.toolName === "bash" && event.input.command === "echo original") return { input: { ...event.input, command: "echo rewritten" } };
		if (event.toolName === "bash" && event.input.command === "throw") throw new Error("hook broke");
	});
	pi.on("tool_result", (event) => {
		const text = event.content.map((c) => c.text ?? "").join("");
		if (text.includes("sk-")) return { content: [{ type: "text", text: text.replace(/sk-[A-Za-z0-9-]+/g, "***") }] };
	});
	pi.on("before_agent_start", (event) => ({ message: { customType: "note", content: "CONTEXT-MARKER-9 for " + event.prompt, display: false } }));
}
`,
};

/** A bridge command that answers `answer` (exit `code`) and leaves a mark when it runs. */
function script(dir: string, answer: string, code = 0): { command: string; ran: () => boolean } {
	const name = Math.random().toString(36).slice(2);
	const mark = join(dir, `ran-${name}`);
	const path = join(dir, `answer-${name}.sh`);
	writeFileSync(path, `#!/bin/sh\ncat >/dev/null\ntouch '${mark}'\nprintf '%s' '${answer}'\nexit ${code}\n`, { mode: 0o755 });
	return { command: path, ran: () => existsSync(mark) };
}

/** A plugin folder whose tool-call command is `command` (as the suite writes one). */
function handWritten(command: string, served = false): string {
	const dir = tempDir("xcsh-oc-plugin-");
	writeFiles(dir, packageFiles(pluginSource({ before_tool_call: command }, served)));
	return dir;
}

describe("openclaw plugin", () => {
	const clis = useClis();
	for (const cli of clis) {
		describe(cli.name, () => {
			test(
				"install openclaw --user writes the plugin and registers it as `plugins install --link` + `enable` do; uninstall leaves the config byte for byte",
				async () => {
					const home = privateHome();
					const proj = tempDir("xcsh-oc-");
					const before =
						'{\r\n\t"gateway": {"port": 18789},\r\n\t"plugins": {"enabled": true, "entries": {"other": {"enabled": false}}}\r\n}\r\n';
					writeFiles(home, { ".openclaw/openclaw.json": before });
					const said = await ok(cli, ["install", "openclaw", "--user"], proj, home);
					expect(said).toContain("agent exec");
					const config = JSON.parse(readFileSync(join(home, ".openclaw/openclaw.json"), "utf8"));
					expect(config.plugins.load.paths).toEqual([join(home, USER_FOLDER)]);
					expect(config.plugins.entries["xcsh-hooks"]).toEqual({ enabled: true, hooks: { allowConversationAccess: true } });
					expect(config.plugins.entries.other).toEqual({ enabled: false });
					const manifest = JSON.parse(readFileSync(join(home, USER_FOLDER, "openclaw.plugin.json"), "utf8"));
					expect(manifest).toMatchObject({
						id: "xcsh-hooks",
						activation: { onStartup: true },
						contracts: { agentToolResultMiddleware: ["openclaw"] },
					});
					const pkg = JSON.parse(readFileSync(join(home, USER_FOLDER, "package.json"), "utf8"));
					expect(pkg).toMatchObject({ type: "module", openclaw: { extensions: ["./index.mjs"] } });
					expect(pkg.dependencies).toBeUndefined();
					expect(await ok(cli, ["install", "openclaw", "--user"], proj, home)).toContain("nothing changed");
					await ok(cli, ["uninstall", "openclaw", "--user"], proj, home);
					expect(readFileSync(join(home, ".openclaw/openclaw.json"), "utf8")).toBe(before);
					expect(existsSync(join(home, USER_FOLDER))).toBe(false);
				},
				TIMEOUT_MS,
			);

			test(
				"install openclaw refuses a config it cannot edit exactly (JSON5, plugins not an object) and writes nothing",
				async () => {
					for (const text of ['{\n  // JSON5\n  "plugins": {}\n}\n', '{"plugins": []}\n', '{"plugins": {"load": {"paths": "x"}}}\n']) {
						const home = privateHome();
						const proj = tempDir("xcsh-oc-");
						writeFiles(home, { ".openclaw/openclaw.json": text });
						const run = await runCli(cli, ["install", "openclaw", "--user"], { cwd: proj, home, timeoutMs: 30_000 });
						expect(run.code).not.toBe(0);
						expect(run.stderr).toContain("openclaw.json");
						expect(readFileSync(join(home, ".openclaw/openclaw.json"), "utf8")).toBe(text);
						expect(existsSync(join(home, USER_FOLDER))).toBe(false);
					}
				},
				TIMEOUT_MS,
			);

			test(
				"install openclaw refuses a folder holding a file of the user's and changes nothing",
				async () => {
					const home = privateHome();
					const proj = tempDir("xcsh-oc-");
					writeFiles(proj, { ".openclaw/extensions/xcsh-hooks/index.mjs": "export default {};\n" });
					const run = await runCli(cli, ["install", "openclaw"], { cwd: proj, home, timeoutMs: 30_000 });
					expect(run.code).not.toBe(0);
					expect(run.stderr).toContain("not ours");
					expect(existsSync(join(home, ".openclaw/openclaw.json"))).toBe(false);
					expect(readFileSync(join(proj, ".openclaw/extensions/xcsh-hooks/index.mjs"), "utf8")).toBe("export default {};\n");
				},
				TIMEOUT_MS,
			);

			test(
				"the installed plugin: exec judged as bash, wrapper and inner call both judged, subagent named, rewrite merged, redaction, context",
				async () => {
					const home = privateHome();
					writeFiles(home, HOOKS);
					const proj = tempDir("xcsh-oc-");
					await ok(cli, ["install", "openclaw", "--user"], proj, home);
					const seen = await runHost(join(home, USER_FOLDER), proj, home, [
						EVENTS.prompt,
						EVENTS.inner,
						EVENTS.outer,
						EVENTS.spawned,
						EVENTS.subagent,
						withCommand("inner", "echo original", { timeoutSeconds: 5 }),
						withCommand("outer", "echo original"),
						withCommand("inner", "echo harmless"),
						withCommand("inner", "throw"),
						EVENTS.middleware,
					]);
					expect(seen.id).toBe("xcsh-hooks");
					expect(seen.registered).toEqual(["before_tool_call", "before_prompt_build", "subagent_spawned"]);
					expect(seen.middleware).toBe(1);
					expect(seen.options.middleware).toEqual({ runtimes: ["openclaw"] });
					const [prompt, inner, outer, , sub, rewrite, rewriteOuter, harmless, thrown, redacted] = seen.out;
					expect(prompt.returned).toEqual({ prependContext: "CONTEXT-MARKER-9 for clean the build folder" });
					expect(inner.blocked).toStartWith("NO-RM bash [");
					expect(outer.blocked).toStartWith("NO-RM bash [");
					expect(sub.blocked).toStartWith("NO-RM bash by subagent bf9e279c-97b4-4eb5-9a42-915b785a8be0 [");
					expect(rewrite.params).toEqual({ command: "echo rewritten", timeoutSeconds: 5 });
					expect(rewriteOuter.params).toEqual({ id: "exec", args: { command: "echo rewritten" } });
					expect(harmless.runs).toEqual({ command: "echo harmless" });
					expect(thrown.blocked).toContain("hook broke");
					expect(redacted.result.content).toEqual([{ type: "text", text: "API_KEY=***" }]);
					expect(JSON.stringify(redacted.result)).not.toContain("sk-SECRET");
					expect(redacted.result.details.exitCode).toBe(0);
					// The subagent's blocked call counts in the session that started it (one decision-log session).
					const decisions = readFileSync(join(home, ".xcsh/agent/decisions.jsonl"), "utf8")
						.trim()
						.split("\n")
						.map((line) => JSON.parse(line));
					const blocked = decisions.filter((d) => d.decision === "deny");
					expect(blocked.map((d) => d.subagent ?? "main")).toEqual(["main", "main", "bf9e279c-97b4-4eb5-9a42-915b785a8be0", "main"]);
					// The wrapper's capture (the last main-session call before the spawn) has that session's id; the subagent's own is b891….
					expect(blocked[2].session).toBe("90e26f63-0699-4979-828e-5ea7389e961a");
					expect(blocked[1].session).toBe("90e26f63-0699-4979-828e-5ea7389e961a");
				},
				TIMEOUT_MS,
			);

			test(
				"with serve --socket running, the installed plugin's calls are answered by the server",
				async () => {
					const home = privateHome();
					writeFiles(home, {
						".xcsh/agent/hooks/where.ts": `export default function (pi) {
	pi.on("tool_call", () => ({ block: true, reason: process.argv.includes("serve") ? "ran in serve" : "ran in bridge" }));
}
`,
					});
					const proj = tempDir("xcsh-oc-");
					await ok(cli, ["install", "openclaw", "--user"], proj, home);
					await startSocketServer(cli, home, proj);
					try {
						const seen = await runHost(join(home, USER_FOLDER), proj, home, [EVENTS.inner]);
						expect(seen.out[0].blocked).toStartWith("ran in serve");
					} finally {
						await stopServers();
					}
				},
				TIMEOUT_MS,
			);
		});
	}

	test(
		"a served plugin starts no process: its bridge command never runs while the server answers",
		async () => {
			const cli = clis[0];
			if (!cli) throw new Error("no CLI");
			const home = privateHome();
			writeFiles(home, HOOKS);
			const proj = tempDir("xcsh-oc-");
			const bridge = script(proj, '{"block":true,"blockReason":"spawned"}');
			await startSocketServer(cli, home, proj);
			try {
				const seen = await runHost(handWritten(bridge.command, true), proj, home, [EVENTS.inner]);
				expect(seen.out[0].blocked).toStartWith("NO-RM bash [");
				expect(bridge.ran()).toBe(false);
			} finally {
				await stopServers();
			}
		},
		TIMEOUT_MS,
	);

	test(
		"every failure blocks with a reason: a bridge that fails, garbage, unknown keys, a non-object input; a rewrite drops keys as OpenClaw merges",
		async () => {
			const home = privateHome();
			const proj = tempDir("xcsh-oc-");
			const cases: Array<[string, number, (out: any) => void]> = [
				["", 1, (o) => expect(o.blocked).toContain("exited 1")],
				["not json", 0, (o) => expect(o.blocked).toContain("not JSON")],
				['{"allow":true}', 0, (o) => expect(o.blocked).toContain("unexpected answer keys allow")],
				['{"params":[1]}', 0, (o) => expect(o.blocked).toContain("must be an object")],
				['{"block":true}', 0, (o) => expect(o.blocked).toBe("blocked by an xcsh hook")],
				[
					'{"params":{"command":"echo new"}}',
					0,
					(o) => {
						expect(o.params).toEqual({ command: "echo new" });
						expect(o.undefinedKeys).toEqual(["timeoutSeconds"]);
					},
				],
			];
			for (const [answer, code, check] of cases) {
				const seen = await runHost(handWritten(script(proj, answer, code).command), proj, home, [
					withCommand("inner", "echo hi", { timeoutSeconds: 5 }),
				]);
				check(seen.out[0]);
			}
		},
		TIMEOUT_MS,
	);
});
