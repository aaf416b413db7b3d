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
		{ name: "UserPromptSubmit" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
		{ name: "SubagentStart" },
		{ name: "SubagentStop" },
	]),
	handler: (_event, command) => ({ type: "command", command, timeout: TIMEOUT_S }),
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
