import { join, resolve } from "pathe";

// One spec per agent below, each of the same shape with that agent's events, file and handler: the
// repetition is the data, deliberately spelled out per agent (adding an agent is adding a spec).

/** The agents `install`/`uninstall` write hook entries for (SPEC §12). */
export const AGENTS = ["claude", "codex", "gemini", "cursor", "copilot"] as const;
/** One of {@link AGENTS}. */
export type Agent = (typeof AGENTS)[number];

/** Project or user level config. */
export type Scope = "project" | "user";

/** One event entry `install` writes. */
export interface AgentEvent {
	/** The agent's own event name, exactly as its config spells it. */
	name: string;
	/** The xcsh event it maps to (PROTOCOLS.md §13). */
	xcsh: string;
	/** Tool events get `"*"`; omitted means every occurrence of the event. */
	matcher?: string;
	/** Events whose action a failed hook should block (Claude `onFailure`, Cursor `failClosed`). */
	guard?: boolean;
}

/** Everything `install` needs to know about one agent's hook config. */
export interface AgentSpec {
	id: Agent;
	/** Name for messages. */
	label: string;
	/** The config file at each level. */
	file(scope: Scope, dir: string): string;
	/**
	 * `grouped`: `hooks.<Event>` is a list of `{matcher?, hooks: [handler]}` (Claude, Codex, Gemini);
	 * `flat`: `hooks.<event>` is a list of handlers (Cursor, Copilot).
	 */
	layout: "grouped" | "flat";
	/** The handler field that holds the shell command. */
	commandKey: "command" | "bash";
	/** The top level of a new file, before the `hooks` key. */
	base: Record<string, unknown>;
	events: AgentEvent[];
	/** The handler object for one event. */
	handler(event: AgentEvent, command: string): Record<string, unknown>;
	/** The handler object for one event answered by `serve --http` at `url` (agents with http hooks only). */
	httpHandler?(event: AgentEvent, url: string): Record<string, unknown>;
	/** What the agent still needs before the entries run, printed after an install. */
	notes(scope: Scope, dir: string): string[];
}

// One timeout for every event: long enough for a hook that asks the network, short of the agents'
// 600 s defaults, in each agent's own unit (Gemini: ms; the others: seconds).
const TIMEOUT_S = 60;

/**
 * The environment variable an http entry's `Authorization` header names (`Bearer $XCSH_HOOKS_TOKEN`):
 * Claude Code expands it from its own environment, and only when `allowedEnvVars` lists it (an
 * unlisted one becomes an empty string). It also marks an http entry as ours.
 */
export const HTTP_TOKEN_VARIABLE = "XCSH_HOOKS_TOKEN";

const claude: AgentSpec = {
	id: "claude",
	label: "Claude Code",
	file: (_scope, dir) => join(dir, ".claude", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: [
		{ name: "PreToolUse", xcsh: "tool_call", matcher: "*", guard: true },
		{ name: "PostToolUse", xcsh: "tool_result", matcher: "*" },
		{ name: "UserPromptSubmit", xcsh: "before_agent_start", guard: true },
		{ name: "SessionStart", xcsh: "session_start" },
		{ name: "SessionEnd", xcsh: "session_shutdown" },
		{ name: "PreCompact", xcsh: "session_before_compact" },
		{ name: "Stop", xcsh: "agent_end" },
	],
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

const codex: AgentSpec = {
	id: "codex",
	label: "Codex CLI",
	file: (_scope, dir) => join(dir, ".codex", "hooks.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: [
		{ name: "PreToolUse", xcsh: "tool_call", matcher: "*" },
		{ name: "PostToolUse", xcsh: "tool_result", matcher: "*" },
		{ name: "UserPromptSubmit", xcsh: "before_agent_start" },
		{ name: "SessionStart", xcsh: "session_start" },
		{ name: "SessionEnd", xcsh: "session_shutdown" },
		{ name: "PreCompact", xcsh: "session_before_compact" },
		{ name: "Stop", xcsh: "agent_end" },
	],
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

const gemini: AgentSpec = {
	id: "gemini",
	label: "Gemini CLI",
	file: (_scope, dir) => join(dir, ".gemini", "settings.json"),
	layout: "grouped",
	commandKey: "command",
	base: {},
	events: [
		{ name: "BeforeTool", xcsh: "tool_call", matcher: "*" },
		{ name: "AfterTool", xcsh: "tool_result", matcher: "*" },
		{ name: "BeforeAgent", xcsh: "before_agent_start" },
		{ name: "SessionStart", xcsh: "session_start" },
		{ name: "SessionEnd", xcsh: "session_shutdown" },
		{ name: "PreCompress", xcsh: "session_before_compact" },
		{ name: "AfterAgent", xcsh: "agent_end" },
	],
	// `name` is what Gemini shows in its project-hook warning and part of its dedup key.
	handler: (_event, command) => ({ type: "command", name: "xcsh-hooks", command, timeout: TIMEOUT_S * 1000 }),
	notes: (scope) =>
		scope === "project" ? ["Gemini runs project hooks only in a trusted workspace (headless: GEMINI_CLI_TRUST_WORKSPACE=true)."] : [],
};

const cursor: AgentSpec = {
	id: "cursor",
	label: "Cursor",
	file: (_scope, dir) => join(dir, ".cursor", "hooks.json"),
	layout: "flat",
	commandKey: "command",
	base: { version: 1 },
	events: [
		{ name: "preToolUse", xcsh: "tool_call", guard: true },
		{ name: "postToolUse", xcsh: "tool_result" },
		{ name: "beforeSubmitPrompt", xcsh: "before_agent_start", guard: true },
		{ name: "sessionStart", xcsh: "session_start" },
		{ name: "sessionEnd", xcsh: "session_shutdown" },
		{ name: "preCompact", xcsh: "session_before_compact" },
		{ name: "stop", xcsh: "agent_end" },
	],
	// `failClosed` is Cursor's switch for "a crash, timeout or invalid JSON blocks" (PROTOCOLS §4.3).
	handler: (event, command) => ({ command, timeout: TIMEOUT_S, ...(event.guard ? { failClosed: true } : {}) }),
	notes: (scope) => (scope === "project" ? ["Cursor runs project hooks only in a trusted workspace."] : []),
};

// PascalCase keys: their payloads carry `hook_event_name`, so one `bridge copilot` command serves every
// event (camelCase payloads name no event, A.4). Copilot has no PascalCase pre-compact event.
const copilot: AgentSpec = {
	id: "copilot",
	label: "GitHub Copilot CLI",
	file: (scope, dir) =>
		scope === "project" ? join(dir, ".github", "hooks", "xcsh-hooks.json") : join(dir, ".copilot", "hooks", "xcsh-hooks.json"),
	layout: "flat",
	commandKey: "bash",
	base: { version: 1 },
	events: [
		{ name: "PreToolUse", xcsh: "tool_call" },
		{ name: "PostToolUse", xcsh: "tool_result" },
		{ name: "UserPromptSubmit", xcsh: "before_agent_start" },
		{ name: "SessionStart", xcsh: "session_start" },
		{ name: "SessionEnd", xcsh: "session_shutdown" },
		{ name: "Stop", xcsh: "agent_end" },
	],
	handler: (_event, command) => ({ type: "command", bash: command, timeoutSec: TIMEOUT_S }),
	notes: (scope, dir) =>
		scope === "user"
			? homeOverride(scope, "COPILOT_HOME", join(dir, ".copilot"), "hooks/xcsh-hooks.json")
			: ["Copilot loads project hooks in prompt mode (-p) only with --trust-folder (or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true)."],
};

/** A note when the agent's own home variable points elsewhere than the user-level file written. */
function homeOverride(scope: Scope, variable: string, written: string, file: string): string[] {
	const value = process.env[variable];
	if (scope !== "user" || !value || resolve(value) === written) return [];
	return [
		`${variable} is set: the agent reads ${join(resolve(value), file)}, not this file; run with ${variable} unset or copy the entries there.`,
	];
}

const SPECS: Record<Agent, AgentSpec> = { claude, codex, gemini, cursor, copilot };

/** Whether `name` is one of {@link AGENTS}. */
export function isAgent(name: string): name is Agent {
	return (AGENTS as readonly string[]).includes(name);
}

/** The install description of `agent`. */
export function agentSpec(agent: Agent): AgentSpec {
	return SPECS[agent];
}
