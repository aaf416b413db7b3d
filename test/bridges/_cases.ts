import { expect } from "bun:test";
/**
 * Per-agent expectations for the end-to-end bridge suites: which fixture is the guarded call, the
 * tool result, the prompt, and the exact answer each agent must get (docs/agents/<agent>.md; Cursor: from its documentation).
 */

/** A fixture file and, for payloads without an event name, the `--event` to pass. */
export interface FixtureRef {
	file: string;
	event?: string;
}

export interface AgentCase {
	label: string;
	agent: string;
	pre: FixtureRef;
	post: FixtureRef;
	prompt: FixtureRef;
	/** Sets the shell command of the `pre` payload. */
	setCommand(payload: Record<string, unknown>, command: string): void;
	/** Field of `pre` whose removal makes it invalid, and of `prompt`. */
	toolField: string;
	promptField: string;
	/** Sets the event name of a payload (unknown-event case). */
	renameEvent(payload: Record<string, unknown>, name: string): string[];
	/** The parsed "no opinion" answer (`undefined`: empty stdout). */
	none: unknown;
	/** "No opinion" on the prompt event, when it differs (pi names the events the hooks handle there). */
	promptNone?: unknown;
	deny(reason: unknown): unknown;
	/** The deny when the payload could not be read (no tool known), when it differs. */
	denyUnread?(reason: unknown): unknown;
	rewrite: unknown;
	replace: unknown;
	context: unknown;
}

const R = "REPLACED-BY-HOOK";
const C = "CONTEXT-FROM-HOOK";
const W = "echo REWRITTEN-BY-HOOK";

const hookEventName = (payload: Record<string, unknown>, name: string) => {
	payload.hook_event_name = name;
	return [];
};
const toolInputCommand = (payload: Record<string, unknown>, command: string) => {
	(payload.tool_input as Record<string, unknown>).command = command;
};
const hso = (hookEventName: string, fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName, ...fields } });
const claudeDeny = (reason: unknown) => hso("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: reason });

const copilotAnswers = {
	none: undefined,
	deny: (reason: unknown) => ({ permissionDecision: "deny", permissionDecisionReason: reason }),
	rewrite: { modifiedArgs: { command: W, description: "Remove the build directory" } },
	replace: { modifiedResult: { resultType: "success", textResultForLlm: R } },
	context: { additionalContext: C },
};

export const AGENT_CASES: AgentCase[] = [
	{
		label: "claude",
		agent: "claude",
		pre: { file: "PreToolUse.Bash.json" },
		post: { file: "PostToolUse.Bash.json" },
		prompt: { file: "UserPromptSubmit.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		none: undefined,
		deny: claudeDeny,
		rewrite: hso("PreToolUse", { permissionDecision: "allow", updatedInput: { command: W, description: "clean" } }),
		replace: hso("PostToolUse", {
			updatedToolOutput: { stdout: R, stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
		}),
		context: hso("UserPromptSubmit", { additionalContext: C }),
	},
	{
		label: "codex",
		agent: "codex",
		pre: { file: "PreToolUse.json" },
		post: { file: "PostToolUse.with-output.json" },
		prompt: { file: "UserPromptSubmit.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		none: undefined,
		deny: claudeDeny,
		rewrite: hso("PreToolUse", { permissionDecision: "allow", updatedInput: { command: W } }),
		replace: { decision: "block", reason: R },
		context: hso("UserPromptSubmit", { additionalContext: C }),
	},
	{
		label: "gemini",
		agent: "gemini",
		pre: { file: "BeforeTool.json" },
		post: { file: "AfterTool.json" },
		prompt: { file: "BeforeAgent.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		none: undefined,
		deny: (reason) => ({ decision: "deny", reason }),
		rewrite: { decision: "allow", ...hso("BeforeTool", { tool_input: { command: W, description: "Remove the build directory" } }) },
		replace: { decision: "deny", reason: R },
		context: hso("BeforeAgent", { additionalContext: C }),
	},
	{
		label: "cursor",
		agent: "cursor",
		pre: { file: "preToolUse.json" },
		post: { file: "postToolUse.mcp.json" },
		prompt: { file: "beforeSubmitPrompt.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		none: {},
		deny: (reason) => ({ permission: "deny", user_message: reason, agent_message: reason }),
		rewrite: { permission: "allow", updated_input: { command: W, working_directory: "/home/user/proj" } },
		replace: { updated_mcp_tool_output: { content: [{ type: "text", text: R }] } },
		// Cursor cannot add context to a prompt: no opinion (and a warning on stderr).
		context: {},
	},
	{
		label: "copilot camelCase",
		agent: "copilot",
		pre: { file: "preToolUse.json", event: "preToolUse" },
		post: { file: "postToolUse.json", event: "postToolUse" },
		prompt: { file: "userPromptSubmitted.json", event: "userPromptSubmitted" },
		setCommand: (payload, command) => {
			(payload.toolArgs as Record<string, unknown>).command = command;
		},
		toolField: "toolArgs",
		promptField: "prompt",
		renameEvent: () => ["--event", "futureEvent"],
		...copilotAnswers,
	},
	{
		label: "copilot PascalCase",
		agent: "copilot",
		pre: { file: "PreToolUse.json" },
		post: { file: "PostToolUse.json" },
		prompt: { file: "UserPromptSubmit.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		...copilotAnswers,
	},
	{
		label: "qwen",
		agent: "qwen",
		pre: { file: "PreToolUse.json" },
		post: { file: "PostToolUse.json" },
		prompt: { file: "UserPromptSubmit.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "prompt",
		renameEvent: hookEventName,
		none: undefined,
		deny: claudeDeny,
		// Qwen applies no rewritten input (C.1): the call is denied, naming the rewrite, never run as it was.
		rewrite: claudeDeny(
			`xcsh-hooks: a hook rewrote this call to ${JSON.stringify({ description: "run it", command: W })}; Qwen Code cannot run a rewritten call, so it was not run`,
		),
		replace: { continue: false, stopReason: R },
		context: hso("UserPromptSubmit", { additionalContext: C }),
	},
	{
		label: "droid",
		agent: "droid",
		pre: { file: "PreToolUse.json" },
		post: { file: "PostToolUse.json" },
		// `droid exec` fires no UserPromptSubmit: the prompt context goes out on SessionStart (C.2).
		prompt: { file: "SessionStart.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "session_id",
		renameEvent: hookEventName,
		none: undefined,
		deny: claudeDeny,
		rewrite: hso("PreToolUse", { permissionDecision: "allow", updatedInput: { command: W, summary: "run it" } }),
		// Droid has no answer that replaces an output: the replacement goes out as context.
		replace: hso("PostToolUse", {
			additionalContext: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${R}`,
		}),
		context: hso("SessionStart", { additionalContext: C }),
	},
	{
		label: "auggie",
		agent: "auggie",
		pre: { file: "PreToolUse.json" },
		post: { file: "PostToolUse.json" },
		prompt: { file: "PromptSubmit.json" },
		setCommand: toolInputCommand,
		toolField: "tool_input",
		promptField: "conversation_id",
		renameEvent: hookEventName,
		none: undefined,
		deny: claudeDeny,
		// Auggie puts updatedInput in place of the whole input: every field of the call goes back (E.2).
		rewrite: hso("PreToolUse", {
			permissionDecision: "allow",
			updatedInput: { command: W, wait: true, cwd: "/home/user/proj", max_wait_seconds: 30 },
		}),
		// Auggie has no answer that replaces an output: the replacement is appended as context.
		replace: hso("PostToolUse", {
			additionalContext: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${R}`,
		}),
		// Auggie hands nothing a prompt hook answers to the model: no answer.
		context: undefined,
	},
	{
		label: "cline",
		agent: "cline",
		// `install cline` writes one file per event, each passing its `--event`.
		pre: { file: "PreToolUse.json", event: "PreToolUse" },
		post: { file: "PostToolUse.json", event: "PostToolUse" },
		prompt: { file: "UserPromptSubmit.json", event: "UserPromptSubmit" },
		setCommand: (payload, command) => {
			((payload.tool_call as Record<string, unknown>).input as Record<string, unknown>).commands = [command];
		},
		toolField: "tool_call",
		promptField: "taskId",
		renameEvent: () => ["--event", "FutureEvent"],
		none: undefined,
		// `cancel` would end the whole run: a run_commands deny runs a command that only reports the reason (C.3).
		deny: (reason) => ({ overrideInput: { commands: [expect.any(String)] }, contextModification: reason }),
		denyUnread: (reason) => ({ cancel: true, errorMessage: reason }),
		rewrite: { overrideInput: { commands: [W] } },
		replace: { contextModification: `xcsh-hooks: a hook replaced the output of this tool call; use this instead of it:\n${R}` },
		context: { contextModification: C },
	},
	{
		label: "pi",
		agent: "pi",
		// The payload is pi's event as the extension `install pi` writes sends it (`type` names it).
		pre: { file: "tool_call.json" },
		post: { file: "tool_result.json" },
		prompt: { file: "before_agent_start.json" },
		setCommand: (payload, command) => {
			(payload.input as Record<string, unknown>).command = command;
		},
		toolField: "input",
		promptField: "prompt",
		renameEvent: (payload, name) => {
			payload.type = name;
			return [];
		},
		none: undefined,
		deny: (reason) => ({ block: true, reason }),
		rewrite: { input: { command: W, description: "clean the build folder" } },
		replace: { content: [{ type: "text", text: R }] },
		promptNone: { handles: expect.any(Array) },
		context: { message: { customType: "xcsh-hooks", content: C, display: false }, handles: expect.any(Array) },
	},
];
