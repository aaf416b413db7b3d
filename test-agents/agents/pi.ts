import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { extensionSource } from "../../src/agents/pi/extension.ts";
import { chatApi } from "../model/chat.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentDriver } from "./types.ts";
import { servedHooks } from "./_served.ts";

/** `~/.pi/agent/models.json`: the scripted model as an OpenAI-compatible provider (docs/agents/pi.md). */
function models(baseUrl: string): string {
	const model = { id: "mock-model", name: "mock-model", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096 };
	const provider = {
		baseUrl,
		api: "openai-completions",
		apiKey: "mock-key",
		compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
		models: [model],
	};
	return `${JSON.stringify({ providers: { mock: provider } }, null, 2)}\n`;
}

/** pi's user settings, written before each run (an `init guard` + `install pi` case writes nothing else). */
function writeUserSettings(sandbox: Sandbox, baseUrl: string): void {
	const dir = join(sandbox.home, ".pi", "agent");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "models.json"), models(baseUrl));
	if (!existsSync(join(dir, "settings.json"))) writeFileSync(join(dir, "settings.json"), '{"enableInstallTelemetry":false}\n');
}

/**
 * pi 0.73.1: `pi -p --no-session --provider mock --model mock-model <prompt>` (docs/agents/pi.md). pi has
 * no command hooks, only in-process extensions, so every case's hook commands run through the extension
 * `install pi` writes (extension.ts), given one command per role: the self-check's hand-written shell
 * hooks answer in the extension's protocol (the bridge's answers: `{block, reason}`, `{content}`, `{message}`).
 */
export const piDriver: AgentDriver = {
	id: "pi",
	pin: { pkg: "@mariozechner/pi-coding-agent", version: "0.73.1", bin: "pi" },
	api: chatApi,
	installAlone: true,
	loadErrorCase: true,
	servedByItself: true,
	configure(sandbox, given) {
		// `install pi`'s own entry: the extension may use the hook server's socket, as the installed one does.
		const { hooks, served } = servedHooks(sandbox, given, "pi");
		sandbox.write({
			"proj/.pi/extensions/xcsh-hooks.js": extensionSource(
				{
					tool_call: hooks.pre,
					tool_result: hooks.post,
					before_agent_start: hooks.prompt,
					// The prompt command also answers pi's context (each model turn) and session_start, which says whether hooks handle context.
					context: hooks.prompt,
					session_start: hooks.prompt,
				},
				undefined,
				served,
			),
		});
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs) {
		writeUserSettings(sandbox, baseUrl);
		const env = sandbox.env({ PI_OFFLINE: "1", PI_TELEMETRY: "0", PI_SKIP_VERSION_CHECK: "1" });
		return runProcess([bin, "-p", "--no-session", "--provider", "mock", "--model", "mock-model", prompt], {
			cwd: sandbox.cwd,
			env,
			timeoutMs,
		});
	},
	selfcheck: {
		deny: (reason) => JSON.stringify({ block: true, reason }),
		context: (text) => JSON.stringify({ message: { customType: "selfcheck", content: text, display: false } }),
		redact: (response, redact) => {
			const text = Array.isArray(response)
				? response.map((c) => String((c as { text?: unknown }).text ?? "")).join("")
				: JSON.stringify(response);
			return JSON.stringify({ content: [{ type: "text", text: redact(text) }] });
		},
	},
};
