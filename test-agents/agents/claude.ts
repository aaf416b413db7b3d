import { existsSync } from "node:fs";
import { join } from "node:path";
import { anthropicApi } from "../model/anthropic.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** `.claude/settings.json` with one command hook per role; the guard fails closed (`onFailure: "block"`). */
export function claudeSettings(hooks: HookCommands): string {
	const entry = (command: string, guard: boolean) => ({ type: "command", command, timeout: 30, ...(guard ? { onFailure: "block" } : {}) });
	return `${JSON.stringify(
		{
			hooks: {
				PreToolUse: [{ matcher: "*", hooks: [entry(hooks.pre, true)] }],
				PostToolUse: [{ matcher: "*", hooks: [entry(hooks.post, false)] }],
				UserPromptSubmit: [{ hooks: [entry(hooks.prompt, false)] }],
				...(hooks.subagent
					? { SubagentStart: [{ hooks: [entry(hooks.subagent, false)] }], SubagentStop: [{ hooks: [entry(hooks.subagent, false)] }] }
					: {}),
			},
		},
		null,
		2,
	)}\n`;
}

/** Claude Code 2.1.x: `claude -p … --output-format json` against `ANTHROPIC_BASE_URL` (docs/agents/claude.md). */
export const claudeDriver: AgentDriver = {
	id: "claude",
	pin: { pkg: "@anthropic-ai/claude-code", version: "2.1.328", bin: "claude" },
	installAlone: true,
	api: anthropicApi,
	configure(sandbox, hooks) {
		sandbox.write({ "proj/.claude/settings.json": claudeSettings(hooks) });
	},
	configureUser(sandbox, hooks) {
		sandbox.write({ "home/.claude/settings.json": claudeSettings(hooks) });
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		const env = sandbox.env({
			ANTHROPIC_BASE_URL: baseUrl,
			ANTHROPIC_API_KEY: "sk-ant-test-key",
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
			DISABLE_AUTOUPDATER: "1",
			DISABLE_TELEMETRY: "1",
			DISABLE_ERROR_REPORTING: "1",
		});
		const mcp = join(sandbox.root, "mcp.json");
		const tools = "Bash Read Agent Task mcp__files__delete_path";
		const args = [
			...prefix,
			bin,
			"-p",
			prompt,
			"--allowedTools",
			tools,
			"--output-format",
			"json",
			...(existsSync(mcp) ? ["--mcp-config", mcp] : []),
		];
		return runProcess(args, { cwd: sandbox.cwd, env, timeoutMs });
	},
	selfcheck: {
		deny: (reason) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }),
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text } }),

		redact: (response, redact) => {
			// Claude Code takes the tool's own output object back; for Read that is `file.content`.
			const out = structuredClone(response) as { file?: { content?: string }; stdout?: string };
			if (out.file?.content) out.file.content = redact(out.file.content);
			if (typeof out.stdout === "string") out.stdout = redact(out.stdout);
			return JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: out } });
		},
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "Agent",
			pick: (offered) => ["Agent", "Task"].find((n) => offered.includes(n)),
			args: () => ({ description: "clean the data folder", prompt: task, subagent_type: "general-purpose" }),
		}),
		// `--mcp-config` (see run): a project `.mcp.json` would wait for the user's approval.
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({ "mcp.json": JSON.stringify({ mcpServers: { files: { type: "stdio", command, args } } }) }),
		namesSubagent: true,
		subagentEvents: true,
	},
	guardChecks(checks, denied) {
		checks.expect(
			"guard: Claude marked the denied call's tool_result is_error",
			denied?.isError === true,
			`result: ${JSON.stringify(denied)}`,
		);
	},
	finalText(run) {
		try {
			return String((JSON.parse(run.stdout) as { result?: unknown }).result);
		} catch {
			return undefined;
		}
	},
};
