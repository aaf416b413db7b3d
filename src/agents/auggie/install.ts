import { auggieEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { AUGGIE } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S } from "../_shared/install-spec.ts";

/**
 * `hooks` in `.augment/settings.json` / `~/.augment/settings.json`: Claude's grouped shape, `PromptSubmit`
 * for the prompt event, the matcher a regular expression, the timeout in milliseconds. Auggie reads the
 * project file with no trust step. Its tool-call hooks are the guard, and Auggie runs the call when one
 * fails or times out: the PreToolUse entry turns any failure of ours into exit 2, which blocks, and ends
 * the bridge before Auggie's timeout would let the call through ({@link AUGGIE}).
 */
export const auggieInstall: AgentSpec = {
	id: AUGGIE.name,
	label: AUGGIE.label,
	file: (_scope, dir) => join(dir, ".augment", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(auggieEvents, [
		{ name: "PreToolUse", matcher: AUGGIE.matchAll },
		{ name: "PostToolUse", matcher: AUGGIE.matchAll },
		{ name: "PromptSubmit" },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "Stop" },
	]),
	handler: (_event, command) => ({ type: "command", command, timeout: (TIMEOUT_S * 1000) / AUGGIE.timeoutUnitMs }),
	entryDeadlineSeconds: AUGGIE.entryDeadlineSeconds,
	notes: () => [
		"Auggie runs hooks only when your Augment account's server enables them (the enable_hooks feature flag it sends Auggie): without it no entry runs and nothing is guarded. Check it once: ask Auggie to run `rm -rf` on a scratch folder your guard blocks, and see it refused.",
		"Auggie cannot replace a tool output or give a prompt hook's context to the model: a redaction is appended after the original output (which the model still sees), and before_agent_start messages are dropped.",
	],
};
