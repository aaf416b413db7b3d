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
		{ name: "PermissionRequest", matcher: "*", guard: true },
		{ name: "UserPromptSubmit", guard: true },
		{ name: "SessionStart" },
		{ name: "SessionEnd" },
		{ name: "PreCompact" },
		{ name: "Stop" },
		{ name: "SubagentStart" },
		{ name: "SubagentStop" },
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
	httpNotes(url) {
		const { hostname, port } = new URL(url);
		const listen = `${hostname}:${port || "80"}`;
		return [
			`Claude sends "Authorization: Bearer $${HTTP_TOKEN_VARIABLE}": start Claude with ${HTTP_TOKEN_VARIABLE} set to the token, e.g. export ${HTTP_TOKEN_VARIABLE}="$(cat ~/.xcsh/agent/http-token)" (the file is created by serve --http).`,
			`The server must be running: xcsh-hooks serve --http ${listen}. While it is down, PreToolUse and UserPromptSubmit are blocked (onFailure: "block", by design); the other events go ahead without the hooks.`,
		];
	},
	// The paths Claude Code 2.1 reads (its binary names /etc/claude-code and /Library/Application Support/ClaudeCode).
	managed: {
		files: {
			linux: "/etc/claude-code/managed-settings.json",
			darwin: "/Library/Application Support/ClaudeCode/managed-settings.json",
			win32: "C:\\Program Files\\ClaudeCode\\managed-settings.json",
		},
		onlyManagedKey: "allowManagedHooksOnly",
	},
	notes: () => [],
};
