import { isRecord, nonEmpty, specificOutput, stringField } from "./answer.ts";
import type { AgentToolCall, Payload } from "./bridge-types.ts";
import type { ExecResult } from "../../exec/exec-command.ts";
import { type AgentAnswer, exitFailure, isObject, type Json, parseAnswer, str } from "./dialect.ts";
import type { AgentHookEntry } from "./entry.ts";
import { opt, str as strField, type Shape } from "./fields.ts";

/*
 * The Claude-style hook protocol that several agents took over (Claude Code's event names, payload
 * fields and `hookSpecificOutput` answers: Qwen Code, Factory Droid). What each of them honours
 * differs (docs/agents/qwen.md, docs/agents/droid.md), so the helpers here take those differences as options.
 */

/** The fields every Claude-style payload carries. */
export const claudeStyleCommon: Shape = {
	session_id: strField,
	hook_event_name: strField,
	cwd: opt(strField),
	transcript_path: opt(strField),
};

/** The tool call of a Claude-style tool event (`tool_name`, `tool_input`, `tool_response`). */
export const claudeStyleCall = (p: Payload): AgentToolCall => ({
	name: p.tool_name as string,
	input: p.tool_input as Record<string, unknown>,
	id: stringField(p, "tool_use_id") ?? stringField(p, "tool_call_id"),
	output: p.tool_response,
	isError: p.hook_event_name === "PostToolUseFailure",
});

/** `hookSpecificOutput.permissionDecision: "deny"` with a reason that is never empty. */
export const claudeStyleDeny = (reason: string): Record<string, unknown> =>
	specificOutput("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: nonEmpty(reason, "blocked by an xcsh hook") });

/** How one Claude-style agent reads its hooks' answers (what it honours of Claude's protocol). */
export interface ClaudeStyleRules {
	/** Label in reasons ("Qwen Code"). */
	label: string;
	/** Top-level `decision: "deny" | "block"` blocks a PreToolUse call (Qwen yes, Droid no). */
	topLevelDecision: boolean;
	/** `permissionDecision: "allow"` + `updatedInput`: `merge`d over the input (Droid), or `ignored` (Qwen headless). */
	updatedInput: "merge" | "ignored";
	/** PostToolUse `continue: false`: its `stopReason` replaces the output (Qwen), or it ends the run (Droid). */
	postContinueFalse: "replace-output" | "stop";
	/** Exit 2 with empty stderr still blocks (Droid) or lets the call run (Qwen). */
	exitTwoEmptyBlocks: boolean;
}

/** One Claude-style hook run, read as the agent reads it. */
export function readClaudeStyle(rules: ClaudeStyleRules, entry: AgentHookEntry, result: ExecResult, input: Json | undefined): AgentAnswer {
	if (result.code === 2) {
		const stderr = result.stderr.trim();
		if (!stderr && !rules.exitTwoEmptyBlocks) return { failure: "exited with code 2 without a reason (the agent lets the call run)" };
		const reason = stderr || "Tool execution blocked by hook";
		if (entry.event === "PreToolUse") return { deny: reason };
		if (entry.event === "PostToolUse" || entry.event === "PostToolUseFailure") return { context: reason };
		return { notice: reason };
	}
	if (result.code !== 0) return { failure: exitFailure(result) };
	const parsed = parseAnswer(result.stdout);
	if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
	if (!parsed.json) return {};
	const json = parsed.json;
	const specific = json.hookSpecificOutput;
	if (specific !== undefined && !isObject(specific)) return { failure: "hookSpecificOutput must be an object" };
	const hso = specific ?? {};
	const answer: AgentAnswer = {};
	if (typeof json.systemMessage === "string") answer.notice = json.systemMessage;
	const context = str(hso.additionalContext);
	const reason = str(hso.permissionDecisionReason) ?? str(json.reason);
	switch (entry.event) {
		case "PreToolUse": {
			const legacy = rules.topLevelDecision && (json.decision === "deny" || json.decision === "block") ? "deny" : undefined;
			const decision = hso.permissionDecision ?? legacy;
			if (decision === "deny") return { ...answer, deny: reason ?? `denied by a ${rules.label} hook` };
			if (decision === "ask") return { ...answer, ask: reason ?? `a ${rules.label} hook asks for confirmation` };
			if (json.continue === false) return { ...answer, deny: str(json.stopReason) ?? `a ${rules.label} hook stopped the agent` };
			if (rules.updatedInput === "merge" && decision === "allow" && hso.updatedInput !== undefined) {
				if (!isObject(hso.updatedInput)) return { failure: "updatedInput must be an object" };
				answer.input = { ...input, ...hso.updatedInput };
			}
			return answer;
		}
		case "PostToolUse":
		case "PostToolUseFailure":
			if (context) answer.context = context;
			if (json.continue === false) {
				const why = str(json.stopReason) ?? `a ${rules.label} hook stopped the agent`;
				if (rules.postContinueFalse === "replace-output") answer.output = why;
				else answer.notice = answer.notice ? `${answer.notice}\n${why}` : why;
			}
			return answer;
		default:
			if (context) answer.context = context;
			return answer;
	}
}

/** Whether a value is a JSON object (re-exported for the family's modules). */
export { isRecord };
