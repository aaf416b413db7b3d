import { responsesApi } from "../model/responses.ts";
import { obj, taskArgs } from "../model/types.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";
import { join } from "node:path";

/** `config.toml` for an offline run (docs/agents/codex.md), trusting the project so its `.codex/hooks.json` loads (docs/agents/codex.md#how-it-calls-hooks). */
export function codexConfig(proj: string): string {
	return `model = "mock-model"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "Mock Responses API"
base_url = "http://127.0.0.1:1/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
requires_openai_auth = false
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
hooks = true
plugins = false
apps = false
multi_agent = true

[projects.${JSON.stringify(proj)}]
trust_level = "trusted"
`;
}

/** Codex `hooks.json` with one command hook per role. */
export function codexHooks(hooks: HookCommands): string {
	const entry = (command: string) => [{ hooks: [{ type: "command", command, timeout: 30 }] }];
	const tool = (command: string) => [{ matcher: "*", hooks: [{ type: "command", command, timeout: 30 }] }];
	const subagent = hooks.subagent ? { SubagentStart: entry(hooks.subagent), SubagentStop: entry(hooks.subagent) } : {};
	return `${JSON.stringify({ hooks: { PreToolUse: tool(hooks.pre), PostToolUse: tool(hooks.post), UserPromptSubmit: entry(hooks.prompt), ...subagent } }, null, 2)}\n`;
}

/** Codex CLI 0.169: `codex exec` against a Responses API provider at `base_url` (docs/agents/codex.md). */
export const codexDriver: AgentDriver = {
	id: "codex",
	pin: { pkg: "@openai/codex", version: "0.169.0", bin: "codex" },
	api: responsesApi,
	configure(sandbox, hooks) {
		sandbox.write({
			"home/.codex/config.toml": codexConfig(sandbox.proj),
			// Codex's own exec policy rejects `rm -rf` under approval "never" whatever a hook says (A.2.1);
			// allowing it here is what makes the guard the only thing between the model and the deletion.
			"home/.codex/rules/default.rules": 'prefix_rule(pattern = ["rm"], decision = "allow")\n',
			"proj/.codex/hooks.json": codexHooks(hooks),
		});
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		const env = sandbox.env({ CODEX_HOME: join(sandbox.home, ".codex"), MOCK_API_KEY: "sk-test" });
		const args = [
			...prefix,
			bin,
			"exec",
			"--skip-git-repo-check",
			"--dangerously-bypass-approvals-and-sandbox",
			"--dangerously-bypass-hook-trust",
			"--color",
			"never",
			"-c",
			`model_providers.mock.base_url="${baseUrl}/v1"`,
			prompt,
		];
		return runProcess(args, { cwd: sandbox.cwd, env, timeoutMs });
	},
	selfcheck: {
		deny: (reason) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }),
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text } }),

		// Codex replaces the output with a PostToolUse block's reason (docs/agents/codex.md `post-block`).
		redact: (response, redact) => JSON.stringify({ decision: "block", reason: redact(String(response)) }),
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "spawn_agent",
			pick: (offered) => offered.find((n) => n === "spawn_agent"),
			args: (_name, schema) => taskArgs(schema, task),
		}),
		// `spawn_agent` returns at once; the main agent then waits for the subagent it started.
		afterSpawn: [
			{
				kind: "call",
				label: "wait_agent",
				pick: (offered) => ["wait_agent", "wait"].find((n) => offered.includes(n)),
				args: (_name, schema, prior) => {
					const id = /"(?:agent_id|id|thread_id)"\s*:\s*"([^"]+)"/.exec(prior[0] ?? "")?.[1] ?? prior[0] ?? "";
					const props = obj(obj(schema).properties);
					const out: Record<string, unknown> = {};
					for (const [key, prop] of Object.entries(props)) {
						if (obj(prop).type === "array") out[key] = [id];
						else if (/id|target|agent/i.test(key)) out[key] = id;
						else if (/timeout/i.test(key)) out[key] = 60_000;
					}
					return out;
				},
			},
		],
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({
				"home/.codex/config.toml": `${codexConfig(sandbox.proj)}\n[mcp_servers.files]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n`,
			}),
		namesSubagent: true,
		subagentEvents: true,
	},
	// `codex exec` prints the last agent message on stdout.
	finalText: (run) => run.stdout.trim().split("\n").at(-1),
};
