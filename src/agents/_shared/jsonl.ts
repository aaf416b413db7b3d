import type { AgentMessage } from "../../messages.ts";

/** One message of an agent transcript, with the time the agent recorded (ISO), if any. */
export interface TranscriptMessage {
	message: AgentMessage;
	timestamp?: string | undefined;
}

/** The JSON objects of a JSONL text; lines that are not objects (torn, blank, garbage) are skipped. */
export function jsonLines(text: string): Record<string, unknown>[] {
	const records: Record<string, unknown>[] = [];
	for (const line of text.split("\n")) {
		if (!line.trim()) continue;
		try {
			const value: unknown = JSON.parse(line);
			if (typeof value === "object" && value !== null && !Array.isArray(value)) records.push(value as Record<string, unknown>);
		} catch {
			// a torn or foreign line: the rest of the transcript is still worth showing
		}
	}
	return records;
}

/** Text of a transcript content value: a string, or the `text` of its blocks/parts joined by newlines. */
export function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
	return content
		.map((part) => (typeof part === "string" ? part : typeof part?.text === "string" ? part.text : ""))
		.filter((text) => text !== "")
		.join("\n");
}

/** `value` as an ISO time string when it is one (or epoch ms). */
export function isoTime(value: unknown): string | undefined {
	if (typeof value === "number" && Number.isFinite(value)) return new Date(value).toISOString();
	if (typeof value !== "string") return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
