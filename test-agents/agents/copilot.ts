import { join } from "node:path";
import { anthropicApi } from "../model/anthropic.ts";
import { taskArgs } from "../model/types.ts";
import { CACHE } from "../paths.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** Project `.github/hooks/suite.json` with one camelCase command hook per role. */
export function copilotHooks(hooks: HookCommands): string {
	const entry = (bash: string) => [{ type: "command", bash, timeoutSec: 30 }];
	// Both spellings of subagent start/stop (the camelCase payloads name no event: `--event` does).
	const subagent = hooks.subagent
		? {
				SubagentStart: entry(hooks.subagent),
				SubagentStop: entry(hooks.subagent),
				subagentStart: entry(`${hooks.subagent} --event subagentStart`),
				subagentStop: entry(`${hooks.subagent} --event subagentStop`),
			}
		: {};
	return `${JSON.stringify({ version: 1, hooks: { preToolUse: entry(hooks.pre), postToolUse: entry(hooks.post), userPromptSubmitted: entry(hooks.prompt), ...subagent } }, null, 2)}\n`;
}

/** GitHub Copilot CLI 1.0.x, BYOK Anthropic provider, offline, no GitHub login (docs/agents/copilot.md). */
export const copilotDriver: AgentDriver = {
	id: "copilot",
	pin: { pkg: "@github/copilot", version: "1.0.102", bin: "copilot" },
	api: anthropicApi,
	configure(sandbox, hooks) {
		sandbox.write({ "proj/.github/hooks/suite.json": copilotHooks(hooks) });
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs) {
		const env = sandbox.env({
			// The SEA unpacks ~235 MB on first start: once, into the suite's cache, not once per private HOME.
			COPILOT_PKG_CACHE_HOME: join(CACHE, "copilot-pkg"),
			COPILOT_AUTO_UPDATE: "false",
			COPILOT_OFFLINE: "true",
			COPILOT_PROVIDER_TYPE: "anthropic",
			COPILOT_PROVIDER_BASE_URL: baseUrl,
			COPILOT_PROVIDER_API_KEY: "sk-test",
			COPILOT_MODEL: "claude-sonnet-4.5",
		});
		const args = [bin, "-p", prompt, "--allow-all-tools", "--no-color", "--no-auto-update", "--trust-folder", "--log-dir", sandbox.logs];
		return runProcess(args, { cwd: sandbox.cwd, env, timeoutMs });
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "task",
			pick: (offered) => offered.find((n) => n === "task"),
			args: (_name, schema) => taskArgs(schema, task, { agent_type: "general-purpose" }),
		}),
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({
				"home/.copilot/mcp-config.json": JSON.stringify({ mcpServers: { files: { type: "local", command, args, tools: ["*"] } } }),
			}),
		namesSubagent: true,
		subagentEvents: true,
	},
	selfcheck: {
		deny: (reason) => JSON.stringify({ permissionDecision: "deny", permissionDecisionReason: reason }),
		context: (text) => JSON.stringify({ additionalContext: text }),

		redact: (response, redact) => {
			const text = String((response as { textResultForLlm?: unknown }).textResultForLlm ?? JSON.stringify(response ?? ""));
			return JSON.stringify({ modifiedResult: { resultType: "success", textResultForLlm: redact(text) } });
		},
	},
};
