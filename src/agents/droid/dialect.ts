import { droidBridge, droidEvents } from "./bridge.ts";
import { hookTargets } from "../_shared/events.ts";
import { DROID } from "./protocol.ts";
import { readClaudeStyle, type ClaudeStyleRules } from "../_shared/claude-family.ts";
import { outputAsText } from "../_shared/text.ts";
import { type Dialect, type Json, lastAssistantText, lifecycle, type RunInfo } from "../_shared/dialect.ts";

/**
 * Factory Droid's own command hooks in our runner (docs/agents/droid.md): Claude-style payloads with a
 * string `tool_response` and no `tool_use_id`. Droid honours `permissionDecision` (not top-level
 * `decision`), merges `updatedInput` over the input, blocks on exit 2 even without stderr, adds
 * PostToolUse `additionalContext` and exit-2 stderr as context, and ends the run on PostToolUse
 * `continue: false`. It lets the call run on a crash, a timeout or garbage; our runner counts those as failures.
 * Its SessionStart entries run on `before_agent_start` (as the bridge maps it).
 */
const RULES: ClaudeStyleRules = {
	label: DROID.label,
	topLevelDecision: false,
	updatedInput: "merge",
	postContinueFalse: "stop",
	exitTwoEmptyBlocks: true,
};

function eventFields(info: RunInfo): Json {
	const { event, call } = info;
	if (event.type === "tool_call") return { tool_name: call?.name, tool_input: call?.input };
	if (event.type === "tool_result") return { tool_name: call?.name, tool_input: call?.input, tool_response: info.text ?? "" };
	if (event.type === "agent_end") return { stop_hook_active: false, last_assistant_message: lastAssistantText(event) };
	if (event.type === "session_shutdown") return { reason: "other" };
	if (event.type === "before_agent_start") return { source: "startup", prompt: event.prompt };
	return lifecycle(event);
}

/** Factory Droid. */
export const droidDialect: Dialect = {
	agent: DROID.name,
	events: hookTargets(droidEvents),
	label: DROID.label,
	tools: droidBridge.tools,
	absolutePaths: true,
	matchMode: DROID.matchMode,
	fires: () => true,
	subject(entry, info) {
		if (info.call) return info.call.name;
		if (entry.event === "SessionStart") return "startup";
		if (entry.event === "PreCompact") return Object.values(lifecycle(info.event))[0] as string;
		return undefined;
	},
	env: (info) => ({ FACTORY_PROJECT_DIR: info.cwd, DROID_PROJECT_DIR: info.cwd, CLAUDE_PROJECT_DIR: info.cwd }),
	payload: (entry, info) => ({
		session_id: info.sessionId,
		cwd: info.cwd,
		permission_mode: "auto-low",
		hook_event_name: entry.event,
		...eventFields(info),
	}),
	read: (entry, result, info) => readClaudeStyle(RULES, entry, result, info.call?.input),
	outputText: (_call, output) => outputAsText(output),
};
