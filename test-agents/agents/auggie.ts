import { augmentApi } from "../model/augment.ts";
import { runProcess } from "../process.ts";
import type { AgentDriver, HookCommands } from "./types.ts";

/** Project `.augment/settings.json` with one command hook per role: Auggie's event names, a regex matcher, timeouts in ms. */
function auggieSettings(hooks: HookCommands): string {
	const entry = (command: string, matcher?: string) => [
		{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, timeout: 30_000 }] },
	];
	const settings = {
		hooks: { PreToolUse: entry(hooks.pre, ".*"), PostToolUse: entry(hooks.post, ".*"), PromptSubmit: entry(hooks.prompt) },
	};
	return `${JSON.stringify(settings, null, 2)}\n`;
}

/** The session Auggie reads from its environment: Augment's API is our scripted one. */
export const auggieAuth = (baseUrl: string): string =>
	JSON.stringify({ accessToken: "test-token", tenantURL: `${baseUrl}/`, scopes: ["read", "write"] });

/**
 * Auggie 0.36.0 (`@augmentcode/auggie`, one `augment.mjs` run by Node): `auggie --print` against a scripted
 * Augment API (`model/augment.ts`), which turns hooks on with the `enable_hooks` flag (docs/agents/auggie.md).
 */
export const auggieDriver: AgentDriver = {
	id: "auggie",
	pin: { pkg: "@augmentcode/auggie", version: "0.36.0", bin: "auggie" },
	api: augmentApi,
	installAlone: true,
	// Auggie has no answer that replaces a tool output, and hands a prompt hook's answer to no model (E.2):
	// the Auggie cases check what it does with both instead (cases/auggie-cases.ts).
	cannot: { redact: false, context: false },
	configure(sandbox, hooks) {
		sandbox.write({ "proj/.augment/settings.json": auggieSettings(hooks) });
	},
	run(bin, sandbox, baseUrl, prompt, timeoutMs, prefix = []) {
		const env = sandbox.env({ AUGMENT_SESSION_AUTH: auggieAuth(baseUrl) });
		return runProcess([...prefix, bin, "--print", "--dont-save-session", "-i", prompt], { cwd: sandbox.cwd, env, timeoutMs });
	},
	selfcheck: {
		deny: (reason) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }),
		// Not handed to the model by Auggie (E.2); written in its form all the same.
		context: (text) => JSON.stringify({ hookSpecificOutput: { hookEventName: "PromptSubmit", additionalContext: text } }),
		redact: (response, redact) =>
			JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: redact(String(response ?? "")) } }),
	},
	// `--print` shows the model's text on the line after the robot, then the request id.
	finalText(run) {
		const lines = run.stdout.split("\n").map((l) => l.trim());
		const robot = lines.lastIndexOf("🤖");
		return robot < 0 ? undefined : lines[robot + 1];
	},
};
