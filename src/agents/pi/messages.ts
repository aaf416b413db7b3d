import { isRecord } from "../_shared/answer.ts";
import type { AgentMessage } from "../../messages.ts";

/*
 * pi's `context` messages and ours (docs/agents/pi.md: pi's message form is the one ours descends from).
 * To ours: each user, assistant, toolResult and custom message keeps only the fields our schema has
 * (pi adds `api`, `provider`, `usage`, `responseId`, block signatures…, which a hook's result would
 * fail validation with), and pi's other messages (`bashExecution`, `branchSummary`,
 * `compactionSummary`) are not shown to hooks. Back to pi, a hook's messages replace pi's:
 * - a message a hook left as it got it is pi's original object, every field of it kept;
 * - one a hook changed keeps pi's own fields (usage, provider…) under the hook's, when it is still the
 *   same message: a toolResult by its `toolCallId`, any other by its role and `timestamp`; its content
 *   blocks a hook left as they were keep theirs (a thinking block's signature);
 * - one a hook added is sent as it is, with a `timestamp` when it has none (pi's messages all carry one);
 * - a message hooks never saw stays after the message it followed (the one before it that is kept),
 *   or at the start.
 */

type Json = Record<string, unknown>;

const BLOCK_FIELDS: Record<string, readonly string[]> = {
	text: ["type", "text"],
	image: ["type", "data", "mimeType"],
	thinking: ["type", "thinking"],
	toolCall: ["type", "id", "name", "arguments"],
};

const MESSAGE_FIELDS: Record<string, readonly string[]> = {
	user: ["role", "content", "timestamp"],
	assistant: ["role", "content", "timestamp", "model", "stopReason"],
	toolResult: ["role", "toolCallId", "toolName", "content", "details", "isError", "timestamp"],
	custom: ["role", "customType", "content", "display", "details", "timestamp"],
};

function pick(value: Json, fields: readonly string[]): Json {
	const out: Json = {};
	for (const key of fields) if (value[key] !== undefined) out[key] = value[key];
	return out;
}

/** A content block in our form; `undefined` for a block of a type ours has not (it is left out). */
function ourBlock(block: unknown): Json | undefined {
	if (!isRecord(block) || typeof block.type !== "string") return undefined;
	const fields = BLOCK_FIELDS[block.type];
	return fields ? pick(block, fields) : undefined;
}

/** One pi message in our form, or `undefined` when ours has no such message. */
function ourMessage(message: unknown): AgentMessage | undefined {
	if (!isRecord(message) || typeof message.role !== "string") return undefined;
	const fields = MESSAGE_FIELDS[message.role];
	if (!fields) return undefined;
	const out = pick(message, fields);
	if (Array.isArray(message.content)) out.content = message.content.map(ourBlock).filter((b) => b !== undefined);
	return out as unknown as AgentMessage;
}

/** The messages of pi's `context` event that hooks see, each with its index in pi's list. */
export function toOurMessages(piMessages: readonly unknown[]): { messages: AgentMessage[]; from: number[] } {
	const messages: AgentMessage[] = [];
	const from: number[] = [];
	piMessages.forEach((message, index) => {
		const ours = ourMessage(message);
		if (ours) {
			messages.push(ours);
			from.push(index);
		}
	});
	return { messages, from };
}

const sameMessage = (a: Json, b: Json) =>
	a.role === b.role && (a.role === "toolResult" ? a.toolCallId === b.toolCallId : a.timestamp !== undefined && a.timestamp === b.timestamp);

/** A changed message over pi's original: pi's fields ours has not stay, ours are the hook's; unchanged blocks keep pi's. */
function merged(original: Json, changed: Json): Json {
	const out: Json = { ...original };
	for (const key of MESSAGE_FIELDS[String(original.role)] ?? []) delete out[key];
	Object.assign(out, changed);
	if (Array.isArray(changed.content) && Array.isArray(original.content)) {
		const blocks = original.content as unknown[];
		const used = new Set<number>();
		out.content = changed.content.map((block) => {
			const at = blocks.findIndex((b, i) => !used.has(i) && Bun.deepEquals(ourBlock(b), block));
			if (at < 0) return block;
			used.add(at);
			return blocks[at];
		});
	}
	return out;
}

/**
 * pi's message list after the hooks replaced `ours` (what {@link toOurMessages} gave them) with
 * `result`; `undefined` when it is pi's list unchanged (nothing to send back).
 */
export function toPiMessages(
	piMessages: readonly unknown[],
	ours: AgentMessage[],
	from: number[],
	result: AgentMessage[],
): unknown[] | undefined {
	if (Bun.deepEquals(ours, result)) return undefined;
	const used = new Set<number>();
	const unused = (test: (k: number) => boolean) => ours.findIndex((_, k) => !used.has(k) && test(k));
	const back: Array<{ message: unknown; origin?: number | undefined }> = result.map((message) => {
		const r = message as unknown as Json;
		let k = unused((k) => Bun.deepEquals(ours[k], message));
		if (k >= 0) {
			used.add(k);
			return { message: piMessages[from[k] as number], origin: from[k] };
		}
		k = unused((k) => sameMessage(ours[k] as unknown as Json, r));
		if (k >= 0) {
			used.add(k);
			return { message: merged(piMessages[from[k] as number] as Json, r), origin: from[k] };
		}
		return { message: r.timestamp === undefined ? { ...r, timestamp: Date.now() } : r };
	});
	// The messages hooks never saw, each after the closest kept message before it.
	const seen = new Set(from);
	const kept = new Set(back.flatMap((b) => (b.origin === undefined ? [] : [b.origin])));
	const after = new Map<number, unknown[]>();
	let anchor = -1;
	piMessages.forEach((message, index) => {
		if (seen.has(index)) {
			if (kept.has(index)) anchor = index;
			return;
		}
		after.set(anchor, [...(after.get(anchor) ?? []), message]);
	});
	const out: unknown[] = [...(after.get(-1) ?? [])];
	for (const b of back) {
		out.push(b.message);
		if (b.origin !== undefined) out.push(...(after.get(b.origin) ?? []));
	}
	return out;
}
