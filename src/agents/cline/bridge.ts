import { CLINE } from "./protocol.ts";
import { answerJson, askAsDeny, isRecord, nonEmpty, stringField } from "../_shared/answer.ts";
import { any, arr, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { oneLine } from "../../one-line.ts";
import { quoted, runCommandLines, shown } from "./commands.ts";
import { outputAsText } from "../_shared/text.ts";
import { shellRule } from "../_shared/tools.ts";
import { splitPrefixed, subagentOf } from "../_shared/actor.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * Cline CLI (docs/agents/cline.md): one executable per event in `.clinerules/hooks/` or `~/.cline/hooks/`,
 * each running `xcsh-hooks bridge cline --event <Event>`. The payload names its event as `hookName`
 * (`tool_call`, `tool_result`, …), the call as `tool_call {id, name, input}`; the answer is
 * `{cancel?, overrideInput?, contextModification?, errorMessage?}`; exit codes and other shapes are ignored.
 *
 * - PreToolUse → `tool_call`. `run_commands` in every form Cline accepts (commands.ts: `{commands: [...]}`,
 *   one string, `{command, args}` argv, …) reaches hooks as `bash {command}` (the command lines joined by
 *   newlines). An input Cline would not run, or a non-object input of another tool, is never handed to the
 *   hooks as it is: the event is skipped and the answer is the deny below, naming what is wrong (fail
 *   closed; map.ts has no way for a call to report itself invalid, so no guard decision is logged).
 *   Cline's `cancel` aborts the whole run, so a deny of `run_commands` is an `overrideInput` whose one
 *   command only prints the reason and fails, plus the reason as `contextModification`: the call does not
 *   run, the model reads why, the run goes on. Any other tool has no such harmless form: its deny is
 *   `cancel: true` (the run ends; never an allow).
 * - A rewrite is `overrideInput` (the whole input; `run_commands` as `{commands: [command]}`).
 * - PostToolUse → `tool_result`: Cline cannot replace an output; a replacement goes back as
 *   `contextModification` (a message after the result; the original stays visible).
 * - UserPromptSubmit → `before_agent_start` (`contextModification`); TaskStart, TaskComplete,
 *   SessionShutdown → `session_start`, `agent_end`, `session_shutdown`.
 *
 * Cannot: replace a tool output; add prompt context in `cline` CLI runs (UserPromptSubmit does not fire
 * there, and TaskStart's context is dropped); cancel a compaction; stop a non-shell call without ending the run.
 */

const common: Shape = { hookName: opt(str), taskId: str, workspaceRoots: opt(arr) };
const none: AgentEventSpec = { fields: common, to: null };

/** Cline's input as hooks see it (`run_commands`, in any of its forms, as one `command`), or why it cannot be. */
function hookInput(name: string, input: unknown): { input: Record<string, unknown> } | { problem: string } {
	if (name === "run_commands") {
		const read = runCommandLines(input);
		return "lines" in read ? { input: { command: read.lines.join("\n") } } : read;
	}
	return isRecord(input) ? { input } : { problem: `the input of ${name} is not an object (got ${shown(input)})` };
}

type ClineTool = { id?: unknown; name: string; input: unknown; output?: unknown };

/** Why the payload's call cannot reach the hooks, if it cannot. */
function callProblem(p: Payload, key: "tool_call" | "tool_result"): string | undefined {
	const tool = p[key];
	if (!isRecord(tool) || typeof tool.name !== "string") return undefined; // the shape check names it
	const read = hookInput(tool.name, tool.input);
	if (!("problem" in read)) return undefined;
	// After the call ran, an object input Cline did not take still goes to the hooks as it is.
	return key === "tool_result" && isRecord(tool.input) ? undefined : read.problem;
}

const call =
	(key: "tool_call" | "tool_result") =>
	(p: Payload): AgentToolCall => {
		const tool = p[key] as ClineTool;
		const post = isRecord(p.postToolUse) ? p.postToolUse : {};
		const read = hookInput(tool.name, tool.input);
		return {
			name: tool.name,
			input: "input" in read ? read.input : (tool.input as Record<string, unknown>), // `skip` let only objects by
			id: typeof tool.id === "string" ? tool.id : undefined,
			output: tool.output,
			isError: post.success === false,
		};
	};

// Cline's `input` is `unknown` (`run_commands` also takes a bare string or list): `hookInput` reads it.
const toolShape = obj({ name: str, input: any });

/** Cline's hook files (event names) and what each becomes. */
export const clineEvents: Record<string, AgentEventSpec> = {
	PreToolUse: {
		fields: { ...common, tool_call: toolShape },
		to: "tool_call",
		call: call("tool_call"),
		skip: (p) => callProblem(p, "tool_call"), // answered with a deny by `body`
	},
	PostToolUse: {
		fields: { ...common, tool_result: toolShape },
		to: "tool_result",
		call: call("tool_result"),
		skip: (p) => callProblem(p, "tool_result"),
	},
	UserPromptSubmit: {
		fields: common,
		to: "before_agent_start",
		prompt: (p) => stringField(p.userPromptSubmit, "prompt") ?? stringField(p, "prompt") ?? "",
	},
	TaskStart: { fields: common, to: "session_start" },
	TaskComplete: { fields: common, to: "agent_end" },
	SessionShutdown: { fields: common, to: "session_shutdown" },
	TaskResume: none,
	TaskCancel: none,
	TaskError: none,
	PreCompact: none,
};

/** The tool the payload names. */
const toolName = (payload: Payload): string | undefined =>
	stringField(payload.tool_call, "name") ?? stringField(payload.tool_result, "name");

function deny(payload: Payload, reason: string): Record<string, unknown> {
	const why = nonEmpty(reason, "blocked by an xcsh hook");
	if (toolName(payload) === "run_commands")
		return {
			overrideInput: { commands: [`printf '%s\\n' ${quoted(`Not run: ${why}`)}; exit 1`] },
			contextModification: `The command was not run: ${why}`,
		};
	return { cancel: true, errorMessage: why };
}

function body(event: string, payload: Payload, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	// A guard call the hooks never saw (skipped above: its input cannot be mapped) is denied, never let by.
	const problem = clineEvents[event]?.to === "tool_call" && outcome.kind !== "deny" ? callProblem(payload, "tool_call") : undefined;
	if (problem !== undefined) {
		warn(`cline ${event}: ${oneLine(problem)}; the tool call is denied (fail closed)`);
		return deny(payload, oneLine(`xcsh-hooks bridge cline: ${problem} (fail closed)`));
	}
	switch (outcome.kind) {
		case "deny":
			return deny(payload, outcome.reason);
		case "ask":
			// Cline's `review` did nothing in a headless run, so the call would run: our deny, naming the ask.
			return deny(payload, askAsDeny(outcome.reason, "Cline"));
		case "rewrite": {
			const input = outcome.input;
			if (toolName(payload) === "run_commands" && typeof input.command === "string")
				return { overrideInput: { commands: [input.command] } };
			return { overrideInput: input };
		}
		case "replace":
			if (outcome.text === undefined) {
				warn(`cline ${event}: only text can stand for a replaced output; the hook's replaced details were dropped`);
				return {};
			}
			warn(`cline ${event}: Cline cannot replace a tool output; the replacement is sent as context and the original stays visible`);
			return { contextModification: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${outcome.text}` };
		case "context":
			return { contextModification: outcome.text };
		case "cancel":
			warn(`cline ${event}: Cline cannot cancel a compaction; the hook's cancel was ignored`);
			return {};
		// No event of this agent becomes subagent_start, so nothing can be refused here.
		case "deny-start":
		case "messages": // no context event in this agent
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The Cline bridge. */
export const clineBridge: AgentBridge = {
	name: CLINE.name,
	events: clineEvents,
	tools: [shellRule("run_commands")],
	timeoutSeconds: CLINE.timeoutSeconds,
	eventName(payload, hint) {
		if (hint) return hint;
		const name = stringField(payload, "hookName");
		return name === undefined ? undefined : (CLINE.hookNames[name] ?? name);
	},
	projectDirs: (payload) => {
		const roots = Array.isArray(payload.workspaceRoots) ? payload.workspaceRoots : [];
		return [typeof roots[0] === "string" ? roots[0] : undefined, stringField(payload.workspaceInfo, "rootPath")];
	},
	// Measured in 3.0.65: a `spawn_agent` subagent runs its own task (`taskId`) in the same root session
	// (`sessionContext.rootSessionId`): the root keeps one session file for the agent and its subagents.
	sessionId: (payload) => stringField(payload.sessionContext, "rootSessionId") ?? stringField(payload, "taskId"),
	// Every payload names its agent (`agent_id`) and that agent's parent (`parent_agent_id`, null for the
	// main agent): one with a parent is a subagent (`spawn_agent`).
	subagent: (payload) =>
		stringField(payload, "parent_agent_id") ? subagentOf(payload, { id: ["agent_id"], parentId: ["parent_agent_id"] }) : undefined,
	// Measured in 3.0.65: MCP tools are `<server>__<tool>` (no prefix; no built-in tool has `__`), split at the first `__`.
	mcpTool: (call) => splitPrefixed(call.name, "", "__"),
	outputText(call) {
		const output = call.output;
		if (Array.isArray(output) && output.every((o) => isRecord(o) && "result" in o))
			return output.map((o) => outputAsText((o as Record<string, unknown>).result)).join("\n");
		return outputAsText(output);
	},
	answer: (event, payload, outcome, notes) => answerJson(body(event, payload, outcome, notes.warn)),
	// No tool is known: only `cancel` is sure to stop it (the run ends; never an allow).
	denyUnknown: (reason) => JSON.stringify({ cancel: true, errorMessage: reason }),
};
