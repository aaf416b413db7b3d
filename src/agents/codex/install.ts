import { codexEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { CODEX } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S, homeOverride } from "../_shared/install-spec.ts";

export const codexInstall: AgentSpec = {
	id: CODEX.name,
	label: CODEX.label,
	file: (_scope, dir) => join(dir, ".codex", "hooks.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(codexEvents, [
		{ name: "PreToolUse", matcher: "*" },
		{ name: "PostToolUse", matcher: "*" },
		{ name: "PermissionRequest", matcher: "*" },
		{ name: "UserPromptSubmit" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
		{ name: "SubagentStart" },
		{ name: "SubagentStop" },
	]),
	handler: (_event, command) => ({ type: "command", command, timeout: TIMEOUT_S }),
	// Managed hooks live in requirements.toml (Codex 0.169 reads /etc/codex/requirements.toml); they need no hook trust.
	managed: {
		files: {
			linux: "/etc/codex/requirements.toml",
			darwin: "/etc/codex/requirements.toml",
			win32: "C:\\ProgramData\\OpenAI\\Codex\\requirements.toml",
		},
		onlyManagedKey: "allow_managed_hooks_only",
		// Observed with Codex 0.169: a user's `[features] hooks = false` turns the managed hooks off too.
		alsoPin: { table: "features", key: "hooks" },
		format: "toml",
	},
	notes: (scope, dir) => [
		"Codex runs non-managed hooks only once they are trusted (trust them in Codex, or `codex exec --dangerously-bypass-hook-trust`); untrusted hooks are skipped silently.",
		...homeOverride(scope, "CODEX_HOME", join(dir, ".codex"), "hooks.json"),
		...(scope === "project"
			? [
					`Codex reads ${join(dir, ".codex", "hooks.json")} only when ~/.codex/config.toml marks the project trusted: [projects."${dir}"] trust_level = "trusted"`,
				]
			: []),
	],
};
