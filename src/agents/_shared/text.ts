import { isRecord } from "./answer.ts";

/** The text of a message or tool content: strings as they are, text blocks joined by newlines. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string")
		.map((block) => block.text)
		.join("\n");
}

/** A tool output as text: a string as it is, content blocks' text, anything else as JSON. */
export function outputAsText(output: unknown): string {
	if (output === undefined || output === null) return "";
	if (typeof output === "string") return output;
	if (Array.isArray(output) && output.every((block) => isRecord(block) && typeof block.type === "string")) return contentText(output);
	return JSON.stringify(output);
}
