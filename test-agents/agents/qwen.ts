import { chatApi } from "../model/chat.ts";
import { taskArgs } from "../model/types.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** User settings for an offline run: OpenAI-compatible auth, no telemetry, no update checks (docs/agents/qwen.md). */
const USER_SETTINGS = {
	security: { auth: { selectedType: "openai" } },
	privacy: { usageStatisticsEnabled: false },
	telemetry: { enabled: false },
	general: { enableAutoUpdate: false },
	model: { name: "mock-model" },
};

/** Project `.qwen/settings.json` with one command hook per role (timeouts in seconds). */
function qwenSettings(hooks: HookCommands): string {
	const entry = (name: string, command: string, matcher?: string) => [
		{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", name, command, timeout: 30 }] },
	];
	const settings = {
		hooks: {
			PreToolUse: entry("suite-pre", hooks.pre, "*"),
			PostToolUse: entry("suite-post", hooks.post, "*"),
			UserPromptSubmit: entry("suite-prompt", hooks.prompt),
		},
	};
	return `${JSON.stringify(settings, null, 2)}\n`;
}

/** Qwen Code 0.24.4: `qwen --yolo` against `OPENAI_BASE_URL` (docs/agents/qwen.md). */
export const qwenDriver: AgentDriver = {
	id: "qwen",
	pin: { pkg: "@qwen-code/qwen-code", version: "0.24.4", bin: "qwen" },
	api: chatApi,
	installAlone: true,
	configure(sandbox, hooks) {
		sandbox.write({
			"home/.qwen/settings.json": `${JSON.stringify(USER_SETTINGS, null, 2)}\n`,
			"proj/.qwen/settings.json": qwenSettings(hooks),
		});
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs) {
		const env = sandbox.env({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: "mock-model" });
		return runProcess([bin, "--yolo", "--output-format", "text", prompt], { cwd: sandbox.cwd, env, timeoutMs });
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "task",
			pick: (offered) => ["task", "agent", "Task"].find((n) => offered.includes(n)),
			args: (_name, schema) => taskArgs(schema, task, { subagent_type: "general-purpose" }),
		}),
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({
				"home/.qwen/settings.json": `${JSON.stringify({ ...USER_SETTINGS, mcpServers: { files: { command, args, trust: true } } }, null, 2)}\n`,
			}),
		namesSubagent: true,
		subagentEvents: false,
	},
	selfcheck: {
		deny: (reason) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }),
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text } }),
		// Qwen puts a PostToolUse `continue: false` answer's stopReason in place of the output (C.1).
		redact: (response, redact) =>
			JSON.stringify({
				continue: false,
				stopReason: redact(String((response as { llmContent?: unknown }).llmContent ?? JSON.stringify(response ?? ""))),
			}),
	},
};
