import { isRecord } from "../_shared/answer.ts";
import { isoTime, jsonLines, type TranscriptMessage, textOf } from "../_shared/jsonl.ts";

/** Codex's shell tools as the model calls them; hooks know them as `bash {command}` (docs/agents/codex.md). */
const SHELL_TOOLS = new Set(["exec_command", "shell", "shell_command", "local_shell", "container.exec"]);

/** Injected context Codex records as user messages; not something the user said. */
const BOILERPLATE = /^\s*<(environment_context|user_instructions|permissions instructions)>/;

function parseArguments(value: unknown): Record<string, unknown> {
	if (isRecord(value)) return value;
	try {
		const parsed: unknown = JSON.parse(String(value));
		return isRecord(parsed) ? parsed : { input: value };
	} catch {
		return { input: value };
	}
}

/** A Codex tool call under the name hooks know: shell tools become `bash {command}`. */
function toolCall(name: string, args: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } {
	if (!SHELL_TOOLS.has(name)) return { name, arguments: args };
	const command = args.cmd ?? args.command;
	return { name: "bash", arguments: { command: Array.isArray(command) ? command.join(" ") : String(command ?? "") } };
}

/**
 * A Codex rollout file as messages (docs/agents.md#sessions-and-transcripts): user and assistant messages (injected
 * environment/instructions blocks left out), function and custom tool calls with their outputs.
 * Reasoning (encrypted), turn context and event lines are left out.
 */
export function readCodexTranscript(text: string): TranscriptMessage[] {
	const messages: TranscriptMessage[] = [];
	const toolNames = new Map<string, string>();
	for (const line of jsonLines(text)) {
		const p = line.payload;
		if (line.type !== "response_item" || !isRecord(p)) continue;
		const timestamp = isoTime(line.timestamp);
		if (p.type === "message") {
			const body = textOf(p.content);
			if (p.role === "user" && body && !BOILERPLATE.test(body)) messages.push({ message: { role: "user", content: body }, timestamp });
			if (p.role === "assistant" && body)
				messages.push({ message: { role: "assistant", content: [{ type: "text", text: body }] }, timestamp });
			continue;
		}
		if ((p.type === "function_call" || p.type === "custom_tool_call") && typeof p.call_id === "string" && typeof p.name === "string") {
			const call = toolCall(p.name, parseArguments(p.type === "function_call" ? p.arguments : p.input));
			toolNames.set(p.call_id, call.name);
			messages.push({ message: { role: "assistant", content: [{ type: "toolCall", id: p.call_id, ...call }] }, timestamp });
			continue;
		}
		if ((p.type === "function_call_output" || p.type === "custom_tool_call_output") && typeof p.call_id === "string") {
			const output = isRecord(p.output) && "content" in p.output ? p.output.content : p.output;
			messages.push({
				message: {
					role: "toolResult",
					toolCallId: p.call_id,
					toolName: toolNames.get(p.call_id) ?? "unknown",
					content: [{ type: "text", text: textOf(output) }],
					isError: false,
				},
				timestamp,
			});
		}
	}
	return messages;
}
