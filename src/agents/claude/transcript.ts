import type { AssistantMessage } from "../../messages.ts";
import { isRecord } from "../_shared/answer.ts";
import { isoTime, jsonLines, type TranscriptMessage, textOf } from "../_shared/jsonl.ts";
import { type ToolRule, toBuiltin } from "../_shared/tools.ts";

type AssistantBlock = AssistantMessage["content"][number];

/**
 * Claude Code's JSONL transcript as messages (docs/agents.md#sessions-and-transcripts), in file order: user prompts
 * (meta lines skipped), assistant text, thinking and tool calls (lines of one API message merged),
 * and tool results. Sub-agent (sidechain) lines, summaries and snapshots are left out. Tool calls
 * carry the built-in names hooks know (`Bash` → `bash {command}`).
 */
export function readClaudeTranscript(text: string, rules: readonly ToolRule[]): TranscriptMessage[] {
	const messages: TranscriptMessage[] = [];
	const toolNames = new Map<string, string>();
	let lastAssistant: { id: unknown; message: AssistantMessage } | undefined;
	for (const line of jsonLines(text)) {
		if (line.isSidechain === true || line.isMeta === true || !isRecord(line.message)) continue;
		const timestamp = isoTime(line.timestamp);
		const content = line.message.content;
		if (line.type === "assistant") {
			const blocks = Array.isArray(content) ? content.flatMap((block) => assistantBlock(block, rules, toolNames)) : [];
			if (typeof content === "string") blocks.push({ type: "text", text: content });
			if (lastAssistant && line.message.id !== undefined && lastAssistant.id === line.message.id) {
				lastAssistant.message.content.push(...blocks);
				continue;
			}
			const message: AssistantMessage = { role: "assistant", content: blocks };
			if (typeof line.message.model === "string") message.model = line.message.model;
			lastAssistant = { id: line.message.id, message };
			messages.push({ message, timestamp });
			continue;
		}
		if (line.type !== "user") continue;
		lastAssistant = undefined;
		if (typeof content === "string") {
			messages.push({ message: { role: "user", content }, timestamp });
			continue;
		}
		for (const block of Array.isArray(content) ? content : []) {
			if (block?.type === "text" && typeof block.text === "string")
				messages.push({ message: { role: "user", content: block.text }, timestamp });
			if (block?.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
			messages.push({
				message: {
					role: "toolResult",
					toolCallId: block.tool_use_id,
					toolName: toolNames.get(block.tool_use_id) ?? "unknown",
					content: [{ type: "text", text: textOf(block.content) }],
					isError: block.is_error === true,
				},
				timestamp,
			});
		}
	}
	return messages;
}

function assistantBlock(block: unknown, rules: readonly ToolRule[], toolNames: Map<string, string>): AssistantBlock[] {
	if (!isRecord(block)) return [];
	if (block.type === "text" && typeof block.text === "string") return [{ type: "text", text: block.text }];
	if (block.type === "thinking" && typeof block.thinking === "string") return [{ type: "thinking", thinking: block.thinking }];
	if (block.type !== "tool_use" || typeof block.id !== "string" || typeof block.name !== "string") return [];
	const tool = toBuiltin(rules, block.name, isRecord(block.input) ? block.input : {});
	toolNames.set(block.id, tool.toolName);
	return [{ type: "toolCall", id: block.id, name: tool.toolName, arguments: tool.input }];
}
