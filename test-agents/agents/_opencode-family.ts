import { chatApi } from "../model/chat.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentPin } from "../pins.ts";
import type { AgentDriver } from "./types.ts";

/** What differs between OpenCode and Kilo Code (docs/agents/opencode.md, docs/agents/kilo.md). */
interface Family {
	id: string;
	pin: AgentPin;
	/** The project config file (`opencode.json`, `kilo.json`). */
	config: string;
	/** Its config folders (project, user) relative to the sandbox root; plugins load from `plugin/` in each. */
	configDirs: readonly string[];
	/** The agent's own `*_DISABLE_*` variables for an offline run. */
	env: Record<string, string>;
}

/**
 * A registry on loopback that answers 404 at once. Both agents start a background `@opencode-ai/plugin`
 * (`@kilocode/plugin`) install per config folder when a plugin is present, and wait for it before
 * loading plugins; offline it fails only after ≈70 s of retries against the real registry. Pointing
 * `npm_config_registry` here makes it fail in milliseconds, so a run takes seconds.
 */
function startNoRegistry(): { url: string; stop(): void } {
	const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("not found", { status: 404 }) });
	return { url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}

/** Project config: the scripted model as an OpenAI-compatible provider, every tool allowed. */
function projectConfig(baseUrl: string): string {
	const config = {
		model: "mock/mock-model",
		small_model: "mock/mock-model",
		autoupdate: false,
		share: "disabled",
		permission: { bash: "allow", edit: "allow", read: "allow", external_directory: "allow" },
		provider: {
			mock: {
				npm: "@ai-sdk/openai-compatible",
				options: { baseURL: baseUrl, apiKey: "mock-key" },
				models: { "mock-model": { tool_call: true, limit: { context: 128000, output: 4096 } } },
			},
		},
	};
	return `${JSON.stringify(config, null, 2)}\n`;
}

/** A driver for an agent of the OpenCode family: our hooks run in-process, through the plugin `install` writes. */
export function opencodeFamilyDriver(family: Family): AgentDriver {
	return {
		id: family.id,
		pin: family.pin,
		api: chatApi,
		installAlone: true,
		inProcess: true,
		pluginDirs: family.configDirs.map((dir) => `${dir}/plugin`),
		// No command hooks: the cases write the plugin with `xcsh-hooks install` instead.
		configure() {},
		async run(bin: string, sandbox: Sandbox, baseUrl: string, prompt: string, timeoutMs: number) {
			sandbox.write({ [`proj/${family.config}`]: projectConfig(baseUrl) });
			Bun.spawnSync(["git", "init", "-q"], { cwd: sandbox.proj, env: sandbox.env() });
			const registry = startNoRegistry();
			try {
				const env = sandbox.env({ ...family.env, npm_config_registry: registry.url, NPM_CONFIG_REGISTRY: registry.url });
				return await runProcess([bin, "run", "--print-logs", "--log-level", "INFO", prompt], { cwd: sandbox.cwd, env, timeoutMs });
			} finally {
				registry.stop();
			}
		},
		selfcheck: {
			deny: () => "",
			context: () => "",
			redact: () => "",
		},
	};
}
