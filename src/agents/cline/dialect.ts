import {
	type AgentCall,
	type Dialect,
	exitFailure,
	isObject,
	type Json,
	lastAssistantText,
	parseAnswer,
	type RunInfo,
	str,
} from "../_shared/dialect.ts";
import { hookTargets } from "../_shared/events.ts";
import { outputAsText } from "../_shared/text.ts";
import { clineBridge, clineEvents } from "./bridge.ts";
import { CLINE } from "./protocol.ts";

/**
 * Cline's own hook files in our runner (docs/agents/cline.md): each executable in `.clinerules/hooks/` or
 * `~/.cline/hooks/` runs on its event with the payload Cline sends (`hookName`, `taskId`,
 * `workspaceRoots`, `tool_call {id, name, input}` / `tool_result`, `preToolUse.parameters` with
 * JSON-stringified values) and answers `{cancel?, overrideInput?, contextModification?|context?,
 * errorMessage?}` on stdout. On PreToolUse `cancel` stops the call (in Cline it also ends the run; here
 * the call is denied and the agent goes on), `overrideInput` is a rewrite; context reaches the model.
 * Cline ignores exit codes and lets a crash, garbage or a timeout pass; our runner counts a non-zero
 * exit, unreadable stdout or a timeout as a failure, which blocks a tool call (fail closed).
 */

/** The payload's `hookName` for each hook file. */
const HOOK_NAMES: Record<string, string> = Object.fromEntries(Object.entries(CLINE.hookNames).map(([name, event]) => [event, name]));

/** Our `bash {command}` as Cline's `run_commands {commands: [...]}`; other calls as they are. */
function clineInput(call: AgentCall | undefined): Json {
	if (!call) return {};
	if (call.name === "run_commands" && typeof call.input.command === "string") return { commands: [call.input.command] };
	return call.input;
}

/** `preToolUse.parameters`: every value JSON-stringified, as Cline sends it. */
const parameters = (input: Json): Record<string, string> =>
	Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));

function eventFields(entry: { event: string }, info: RunInfo): Json {
	const { event, call } = info;
	const tool = call
		? { id: event.type === "tool_call" || event.type === "tool_result" ? event.toolCallId : "", name: call.name, input: clineInput(call) }
		: undefined;
	switch (entry.event) {
		case "PreToolUse":
			return { tool_call: tool, preToolUse: { toolName: call?.name, parameters: parameters(clineInput(call)) } };
		case "PostToolUse": {
			const failed = event.type === "tool_result" && event.isError;
			return {
				tool_result: { ...tool, output: info.text ?? "" },
				postToolUse: { toolName: call?.name, parameters: parameters(clineInput(call)), result: info.text ?? "", success: !failed },
			};
		}
		case "UserPromptSubmit":
			return { userPromptSubmit: { prompt: event.type === "before_agent_start" ? event.prompt : "" } };
		case "TaskComplete":
			return { turn: { outputText: lastAssistantText(event), status: "completed" } };
		default:
			return {};
	}
}

/** Cline. */
export const clineDialect: Dialect = {
	agent: CLINE.name,
	label: CLINE.label,
	events: hookTargets(clineEvents),
	tools: clineBridge.tools,
	absolutePaths: false,
	matchMode: "regex-or-exact",
	fires: () => true,
	subject: () => undefined, // hook files have no matchers: every occurrence of the event
	env: () => ({}),
	payload: (entry, info) => ({
		clineVersion: "",
		timestamp: new Date().toISOString(),
		taskId: info.sessionId,
		sessionContext: { rootSessionId: info.sessionId },
		workspaceRoots: [info.cwd],
		workspaceInfo: { rootPath: info.cwd },
		hookName: HOOK_NAMES[entry.event] ?? entry.event,
		...eventFields(entry, info),
	}),
	read(entry, result) {
		if (result.code !== 0) return { failure: exitFailure(result) };
		const parsed = parseAnswer(result.stdout);
		if (parsed.invalid) return { failure: `printed ${parsed.invalid}` };
		const json = parsed.json ?? {};
		const context = str(json.contextModification) ?? str(json.context);
		const message = str(json.errorMessage);
		if (json.cancel === true) {
			const reason = message ?? "cancelled by a Cline hook";
			return entry.event === "PreToolUse"
				? { deny: reason, context }
				: { failure: `cancels the run, which this event cannot do here: ${reason}` };
		}
		const answer = { context: [context, message].filter(Boolean).join("\n") || undefined } as ReturnType<Dialect["read"]>;
		if (entry.event === "PreToolUse" && json.overrideInput !== undefined) {
			if (!isObject(json.overrideInput)) return { failure: "overrideInput must be an object" };
			const commands = json.overrideInput.commands;
			// Back in our field names: `run_commands` lists become one `command`.
			answer.input =
				Array.isArray(commands) && commands.every((c) => typeof c === "string") ? { command: commands.join("\n") } : json.overrideInput;
		}
		return answer;
	},
	outputText: (_call, output) => outputAsText(output),
};
