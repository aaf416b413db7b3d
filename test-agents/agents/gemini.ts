import { googleApi } from "../model/google.ts";
import { taskArgs } from "../model/types.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** User settings for an offline run: API-key auth, no telemetry, no update checks (docs/agents/gemini.md). */
export const USER_SETTINGS = {
	security: { auth: { selectedType: "gemini-api-key" } },
	privacy: { usageStatisticsEnabled: false },
	telemetry: { enabled: false },
	general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/** Project `.gemini/settings.json` with one command hook per role (timeouts in ms). */
export function geminiSettings(hooks: HookCommands): string {
	const entry = (name: string, command: string, matcher?: string) => [
		{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", name, command, timeout: 30_000 }] },
	];
	return `${JSON.stringify(
		{
			hooks: {
				BeforeTool: entry("suite-pre", hooks.pre, "*"),
				AfterTool: entry("suite-post", hooks.post, "*"),
				BeforeAgent: entry("suite-prompt", hooks.prompt),
			},
		},
		null,
		2,
	)}\n`;
}

/** Gemini CLI 0.61: `gemini -p … --yolo` against `GOOGLE_GEMINI_BASE_URL` (docs/agents/gemini.md). */
export const geminiDriver: AgentDriver = {
	id: "gemini",
	pin: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
	api: googleApi,
	configure(sandbox, hooks) {
		sandbox.write({
			"home/.gemini/settings.json": `${JSON.stringify(USER_SETTINGS, null, 2)}\n`,
			"proj/.gemini/settings.json": geminiSettings(hooks),
		});
	},
	configureUser(sandbox, hooks) {
		const settings = { ...USER_SETTINGS, ...(JSON.parse(geminiSettings(hooks)) as object) };
		sandbox.write({ "home/.gemini/settings.json": `${JSON.stringify(settings, null, 2)}\n` });
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		// GEMINI_CLI_TRUST_WORKSPACE in the environment is what loads project hooks headless (`--skip-trust` is not, A.3.1).
		const env = sandbox.env({ GEMINI_API_KEY: "test-key", GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_CLI_TRUST_WORKSPACE: "true" });
		return runProcess([...prefix, bin, "-p", prompt, "--yolo", "--output-format", "json"], { cwd: sandbox.cwd, env, timeoutMs });
	},
	selfcheck: {
		deny: (reason) => JSON.stringify({ decision: "deny", reason }),
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: text } }),

		// Gemini replaces the result with an AfterTool deny's reason, as `{"error": reason}` (A.3.3 `post-deny`).
		redact: (response, redact) =>
			JSON.stringify({
				decision: "deny",
				reason: redact(String((response as { llmContent?: unknown }).llmContent ?? JSON.stringify(response ?? ""))),
			}),
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "invoke_agent",
			pick: (offered) => ["invoke_agent", "generalist", "generalist_agent"].find((n) => offered.includes(n)),
			args: (_name, schema) => taskArgs(schema, task, { agent_name: "generalist" }),
		}),
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({
				"home/.gemini/settings.json": `${JSON.stringify({ ...USER_SETTINGS, mcpServers: { files: { command, args, trust: true } } }, null, 2)}\n`,
			}),
		namesSubagent: false,
		subagentEvents: false,
	},
	finalText(run) {
		try {
			return String((JSON.parse(run.stdout) as { response?: unknown }).response);
		} catch {
			return undefined;
		}
	},
};
