import type { AssistantMessage } from "../../messages.ts";
import { isRecord } from "../_shared/answer.ts";
import { isoTime, jsonLines, type TranscriptMessage, textOf } from "../_shared/jsonl.ts";
import { type ToolRule, toBuiltin } from "../_shared/tools.ts";

/** A tool call's result as text: function-response parts' output, or the value itself. */
function resultText(result: unknown): string {
	if (!Array.isArray(result)) return textOf(result);
	return result
		.map((part) => {
			const response = isRecord(part) && isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
			if (isRecord(response)) return textOf(response.output ?? response.error ?? response);
			return textOf([part]);
		})
		.join("\n");
}

/** The records of a Gemini chat file in order, with rewinds (`$rewindTo`) and checkpoints (`$set`) applied. */
function records(text: string): Record<string, unknown>[] {
	const byId = new Map<string, Record<string, unknown>>();
	for (const line of jsonLines(text)) {
		if (typeof line.$rewindTo === "string") {
			const ids = [...byId.keys()];
			const at = ids.indexOf(line.$rewindTo);
			if (at >= 0) for (const id of ids.slice(at)) byId.delete(id);
		} else if (isRecord(line.$set) && Array.isArray(line.$set.messages)) {
			byId.clear();
			for (const message of line.$set.messages) if (isRecord(message) && typeof message.id === "string") byId.set(message.id, message);
		} else if (typeof line.id === "string" && typeof line.type === "string") {
			byId.set(line.id, line); // a later record with the same id replaces the earlier one
		}
	}
	return [...byId.values()];
}

/**
 * A Gemini CLI chat file (JSONL) as messages (docs/agents.md#sessions-and-transcripts): user and model messages,
 * and each model message's tool calls followed by their results. Info/warning/error records are left out.
 */
export function readGeminiTranscript(text: string, rules: readonly ToolRule[]): TranscriptMessage[] {
	const messages: TranscriptMessage[] = [];
	for (const record of records(text)) {
		const timestamp = isoTime(record.timestamp);
		const body = textOf(record.content);
		if (record.type === "user") {
			if (body) messages.push({ message: { role: "user", content: body }, timestamp });
			continue;
		}
		if (record.type !== "gemini") continue;
		const content: AssistantMessage["content"] = body ? [{ type: "text", text: body }] : [];
		const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isRecord) : [];
		const results: TranscriptMessage[] = [];
		for (const [index, call] of calls.entries()) {
			const id = typeof call.id === "string" ? call.id : `${String(record.id)}-${index}`;
			const tool = toBuiltin(rules, String(call.name ?? "unknown"), isRecord(call.args) ? call.args : {});
			content.push({ type: "toolCall", id, name: tool.toolName, arguments: tool.input });
			const isError = call.status === "error" || call.status === "cancelled";
			results.push({
				message: {
					role: "toolResult",
					toolCallId: id,
					toolName: tool.toolName,
					content: [{ type: "text", text: resultText(call.result) }],
					isError,
				},
				timestamp: isoTime(call.timestamp) ?? timestamp,
			});
		}
		if (content.length > 0) messages.push({ message: { role: "assistant", content }, timestamp });
		messages.push(...results);
	}
	return messages;
}
