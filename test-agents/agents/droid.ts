import { join } from "node:path";
import { chatApi } from "../model/chat.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** Project `.factory/settings.json` with one command hook per role; the prompt role is SessionStart (`droid exec` fires no UserPromptSubmit). */
function droidHooks(hooks: HookCommands): Record<string, unknown> {
	const entry = (command: string, matcher?: string) => [
		{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, timeout: 30 }] },
	];
	return { PreToolUse: entry(hooks.pre, "*"), PostToolUse: entry(hooks.post, "*"), SessionStart: entry(hooks.prompt) };
}

/** Factory Droid 0.225.2 (the platform package: the 0.225.1 wrapper names a missing one): `droid exec` on a custom model (C.2). */
export const droidDriver: AgentDriver = {
	id: "droid",
	pin: { pkg: "@factory/cli-linux-x64", version: "0.225.2", bin: "droid", path: join("@factory", "cli-linux-x64", "bin", "droid") },
	api: chatApi,
	installAlone: true,
	// Droid has no answer that replaces a tool output (and masks secrets itself).
	cannot: { redact: false },
	configure(sandbox, hooks) {
		// The user file holds only the model: `baseUrl` is filled in at run time.
		sandbox.write({ "proj/.factory/settings.json": `${JSON.stringify({ hooks: droidHooks(hooks) }, null, 2)}\n` });
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs) {
		const model = {
			model: "mock-model",
			displayName: "Mock",
			baseUrl,
			apiKey: "sk-test",
			provider: "generic-chat-completion-api",
			maxOutputTokens: 4096,
		};
		sandbox.write({
			"home/.factory/settings.json": `${JSON.stringify({ customModels: [model], enableTelemetry: false, autoUpdateEnabled: false }, null, 2)}\n`,
		});
		const env = sandbox.env({ FACTORY_DROID_AUTO_UPDATE_ENABLED: "false", FACTORY_DISABLE_KEYRING: "1" });
		return runProcess([bin, "exec", "--skip-permissions-unsafe", "-m", "custom:mock-model", prompt], { cwd: sandbox.cwd, env, timeoutMs });
	},
	actor: {
		// No subagent case: in `droid exec` the Task tool answers "Could not reach the daemon" offline.
		mcp: (sandbox, [command, ...args]) =>
			sandbox.write({ "home/.factory/mcp.json": JSON.stringify({ mcpServers: { files: { type: "stdio", command, args } } }) }),
		namesSubagent: true,
		subagentEvents: false,
	},
	selfcheck: {
		deny: (reason) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }),
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } }),
		redact: (response, redact) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: redact(String(response ?? "")) } }),
	},
};
