import { resolve } from "pathe";
import { contentText } from "./text.ts";
import type { ToolRule } from "./tools.ts";
import type { ExecResult } from "../../exec/exec-command.ts";
import type { HookEvent } from "../../hooks/types.ts";
import type { MatchMode } from "./matcher.ts";
import type { AgentHookEntry, AgentHookTarget } from "./entry.ts";

export type Json = Record<string, unknown>;
import { isRecord as isObject } from "../../json.ts";

export { isObject };
export const str = (value: unknown): string | undefined => (typeof value === "string" && value ? value : undefined);

/** One of our tool calls as the agent names it: its tool name and whole input, in its field names. */
export interface AgentCall {
	name: string;
	input: Json;
	/** The rule that renamed it (none: our name and input are the agent's). */
	rule?: ToolRule;
}

/** What an entry is run for: our event, the call as the agent sees it, and the session around it. */
export interface RunInfo {
	event: HookEvent;
	call?: AgentCall;
	/** Tool events: the output as text (post-tool events). */
	text?: string;
	cwd: string;
	sessionId: string;
	model?: string | undefined;
}

/**
 * A hook's answer in agent-neutral terms, read as its agent reads it. At most one decision is meant
 * to be set; `failure` is what the agent would treat as a failed hook (and let the action go ahead).
 */
export interface AgentAnswer {
	/** Block the tool call with this reason. */
	deny?: string;
	/** Ask the user (no UI: blocked). */
	ask?: string;
	/** The tool's whole new input, in the agent's field names. */
	input?: Json;
	/** The tool's new output: text, or an object in the agent's own output shape. */
	output?: unknown;
	/** Text appended to the tool's output (Gemini's AfterTool `additionalContext`). */
	appendText?: string;
	/** Context the model should see. */
	context?: string | undefined;
	/** Keep the agent working with this as the next prompt (Stop `decision: "block"`). */
	continueWith?: string;
	/** Cancel the compaction. */
	cancel?: string;
	/** A message for the user. */
	notice?: string;
	/** The hook failed (crash, timeout, odd exit code, unreadable answer). */
	failure?: string;
}

/** One agent's rules for running its command hooks (payload, environment, matchers, answers). */
export interface Dialect {
	agent: string;
	label: string;
	/** The agent events whose entries run, and the event of ours each runs on. */
	events: Record<string, AgentHookTarget>;
	/** Our tools in the agent's names (the bridge's table, read the other way). */
	tools: readonly ToolRule[];
	/** File tools get absolute paths (Claude, Cursor), as the agent sends them. */
	absolutePaths: boolean;
	matchMode: MatchMode;
	/** Whether this entry's event fires for this run (e.g. PostToolUseFailure only for failed calls). */
	fires(entry: AgentHookEntry, info: RunInfo): boolean;
	/** What the matcher is compared with; `undefined`: the event ignores matchers. */
	subject(entry: AgentHookEntry, info: RunInfo): string | undefined;
	/** The agent's variables (`CLAUDE_PROJECT_DIR`…). */
	env(info: RunInfo): Record<string, string>;
	/** The JSON written to the command's stdin. */
	payload(entry: AgentHookEntry, info: RunInfo): Json;
	/** The command's outcome, read as the agent reads it. */
	read(entry: AgentHookEntry, result: ExecResult, info: RunInfo): AgentAnswer;
	/** A replaced output object (in the agent's shape) as our text. */
	outputText(call: AgentCall, output: unknown): string;
}

/** Our tool name and input as the agent names them (`bash {command}` → `Bash {command}`). */
export function toAgentCall(rules: readonly ToolRule[], toolName: string, input: Json, cwd: string, absolute: boolean): AgentCall {
	const rule = rules.find((r) => r.ours === toolName);
	if (!rule) return { name: toolName, input: { ...input } };
	const out: Json = {};
	for (const [key, value] of Object.entries(input)) {
		const agentKey = rule.fields[key] ?? key;
		out[agentKey] = absolute && key === "path" && typeof value === "string" ? resolve(cwd, value) : value;
	}
	return { name: rule.agent, input: out, rule };
}

/**
 * A hook's new agent input as ours: mapped fields renamed back, fields of our own input it kept or
 * changed under their own names; fields only the agent knows (`description`) are dropped.
 */
export function fromAgentInput(call: AgentCall, agentInput: Json, ours: Json): Json {
	const { rule } = call;
	if (!rule) return { ...agentInput };
	const agentFields = new Map(Object.entries(rule.fields).map(([mine, theirs]) => [theirs, mine]));
	const result: Json = {};
	for (const [key, value] of Object.entries(agentInput)) {
		const mine = agentFields.get(key);
		if (mine !== undefined) result[mine] = value;
		else if (key in ours) result[key] = value;
	}
	return result;
}

/** Stdout read as a JSON object: `json` when it is one, `invalid` when it looks like one but is not. */
export function parseAnswer(text: string): { json?: Json; text: string; invalid?: string } {
	const trimmed = text.trim();
	if (!trimmed.startsWith("{")) return { text: trimmed };
	try {
		const value: unknown = JSON.parse(trimmed);
		return isObject(value) ? { json: value, text: trimmed } : { text: trimmed, invalid: "not a JSON object" };
	} catch (error) {
		return { text: trimmed, invalid: `invalid JSON (${(error as Error).message})` };
	}
}

/** Why a run failed before its answer could be read, or `undefined`. */
export function runFailure(result: ExecResult, timeoutMs: number): string | undefined {
	if (result.killed) return `timed out after ${timeoutMs} ms`;
	if (result.truncated) return "printed more than the output limit";
	return undefined;
}

/** `exited with code N: <first stderr line>`. */
export function exitFailure(result: ExecResult): string {
	const line = result.stderr.trim().split("\n")[0];
	return `exited with code ${result.code}${line ? `: ${line}` : ""}`;
}

/** The last assistant text of a message list (Stop's `last_assistant_message`). */
export function lastAssistantText(event: HookEvent): string {
	if (event.type !== "agent_end") return "";
	const last = [...event.messages].reverse().find((m) => (m as { role?: string }).role === "assistant");
	return last ? contentText((last as { content?: unknown }).content) : "";
}

/** Common lifecycle facts of our events, as the agents name them. */
export function lifecycle(event: HookEvent): Json {
	switch (event.type) {
		case "before_agent_start":
			return { prompt: event.prompt };
		case "session_start":
			return { source: "startup" };
		case "session_before_compact":
			return { trigger: event.customInstructions ? "manual" : "auto" };
		default:
			return {};
	}
}

/**
 * Claude Code and Codex read `decision: "block"` the same way on these two events: a blocked prompt
 * is something a `before_agent_start` hook cannot do (a failure), a blocked Stop asks the agent to go on.
 */
export function promptOrStopDecision(event: "UserPromptSubmit" | "Stop", json: Json, answer: AgentAnswer): AgentAnswer {
	if (json.decision !== "block") return answer;
	if (event === "UserPromptSubmit")
		return { failure: `blocks the prompt, which a before_agent_start hook cannot do: ${str(json.reason) ?? ""}` };
	answer.continueWith = str(json.reason) ?? "continue";
	return answer;
}
