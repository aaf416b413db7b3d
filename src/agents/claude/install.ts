import { claudeEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { CLAUDE } from "./protocol.ts";
import { join } from "pathe";
import { type AgentSpec, TIMEOUT_S, HTTP_TOKEN_VARIABLE } from "../_shared/install-spec.ts";

export const claudeInstall: AgentSpec = {
	id: CLAUDE.name,
	label: CLAUDE.label,
	file: (_scope, dir) => join(dir, ".claude", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: installEvents(claudeEvents, [
		{ name: "PreToolUse", matcher: "*", guard: true },
		{ name: "PostToolUse", matcher: "*" },
		{ name: "UserPromptSubmit", guard: true },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
	]),
	// `onFailure: "block"` (A.1): a bridge that cannot start, times out or answers garbage blocks the guarded action.
	handler: (event, command) => ({ type: "command", command, timeout: TIMEOUT_S, ...(event.guard ? { onFailure: "block" } : {}) }),
	// The same with `serve --http` answering: a server that is down, slow or answers non-2xx blocks guard events too.
	httpHandler: (event, url) => ({
		type: "http",
		url,
		headers: { Authorization: `Bearer $${HTTP_TOKEN_VARIABLE}` },
		allowedEnvVars: [HTTP_TOKEN_VARIABLE],
		timeout: TIMEOUT_S,
		...(event.guard ? { onFailure: "block" } : {}),
	}),
	notes: () => [],
};
