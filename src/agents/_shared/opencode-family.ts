import { ToolBlockedError } from "../../errors.ts";
import type { AgentMessage } from "../../hooks/types.ts";
import { isRecord } from "./answer.ts";
import type { InProcessAgent, InProcessRuntime } from "./inprocess.ts";
import { contentText } from "./text.ts";
import { type MappedTool, setOwn, shellRule, type ToolRule, toAgentInput, toBuiltin } from "./tools.ts";

/*
 * The plugin hooks of OpenCode and its fork Kilo Code (docs/agents/opencode.md, docs/agents/kilo.md; the same API in both,
 * observed on OpenCode 1.18.33 and Kilo 7.7.7), on our in-process runtime:
 *
 * - `tool.execute.before` → `tool_call`. A block throws an Error whose message is the reason (the
 *   model gets exactly it); a rewrite mutates `output.args` in place — OpenCode runs the object it
 *   passed, so reassigning `output.args` would be ignored and the original command would run.
 * - `tool.execute.after` → `tool_result`. A replaced text goes to `output.output` AND to
 *   `output.metadata.output`, and metadata text still holding the original (`preview`) is dropped:
 *   the session store and the TUI read the metadata.
 * - `chat.message` remembers the user's prompt; `experimental.chat.system.transform` runs
 *   `before_agent_start` once per prompt and appends the injected message's text to the system prompt
 *   (observed to reach the model's first request).
 * - `experimental.chat.messages.transform` → `context` over the text of user and assistant messages:
 *   hooks may drop messages and edit their text (see {@link matchContext}); messages they add and a new
 *   order are not representable in OpenCode's store and are left out, with a log line for added ones.
 * - `event`: `session.created` → `session_start`, `session.idle` → `agent_end`, `session.deleted` →
 *   `session_shutdown` (OpenCode does not await `event`).
 */

/** OpenCode's built-in tools (lowercase ids, camelCase fields), mapped to ours. */
export const OPENCODE_TOOL_RULES: readonly ToolRule[] = [
	shellRule("bash"),
	{ agent: "read", ours: "read", fields: { path: "filePath", offset: "offset", limit: "limit" } },
	{ agent: "write", ours: "write", fields: { path: "filePath", content: "content" } },
	{ agent: "edit", ours: "edit", fields: { path: "filePath", oldText: "oldString", newText: "newString" } },
];

/** OpenCode's `{info, parts}` message as the transform hook passes it (only the fields read here). */
interface StoredMessage {
	info: { role?: string; id?: string; time?: { created?: unknown } };
	parts: Array<Record<string, unknown>>;
}

/** Replaces every key of `target` with those of `source`, keeping the object (the agent holds it). */
function replaceInPlace(target: Record<string, unknown>, source: Record<string, unknown>): void {
	for (const key of Object.keys(target)) delete target[key];
	for (const [key, value] of Object.entries(source)) setOwn(target, key, value); // not Object.assign: see setOwn
}

const textOfParts = (parts: StoredMessage["parts"]) =>
	parts
		.filter((part) => part.type === "text" && typeof part.text === "string" && part.synthetic !== true)
		.map((part) => part.text as string)
		.join("\n");

/**
 * The user and assistant messages as ours, each remembered with the stored message it came from. Each
 * carries a distinct `timestamp` (the stored message's creation time, made unique): the runner gives
 * hooks copies, and a message a hook returns with its timestamp kept (`{...m, content}`) is known for
 * the one it came from.
 */
function toAgentMessages(stored: StoredMessage[]): Map<AgentMessage, StoredMessage> {
	const origin = new Map<AgentMessage, StoredMessage>();
	const used = new Set<number>();
	for (const [index, message] of stored.entries()) {
		const role = message.info?.role;
		if (role !== "user" && role !== "assistant") continue;
		const created = message.info?.time?.created;
		let timestamp = typeof created === "number" && Number.isFinite(created) ? created : index;
		while (used.has(timestamp)) timestamp++;
		used.add(timestamp);
		const content = [{ type: "text" as const, text: textOfParts(message.parts ?? []) }];
		origin.set((role === "user" ? { role, content, timestamp } : { role, content, timestamp }) as unknown as AgentMessage, message);
	}
	return origin;
}

/**
 * Which stored messages a `context` result keeps, and with what text. The runner hands hooks copies, so
 * a result message is matched to its original by the `timestamp` {@link toAgentMessages} gave it (kept
 * by a hook that spreads the message it edits); without one, by content: equal role and text to an
 * original not matched yet. A matched message whose text differs is that original edited; anything else
 * was added by a hook. A result equal to the input changes nothing; the stored order is kept (OpenCode's
 * store cannot reorder).
 */
export function matchContext<T>(
	originals: ReadonlyArray<{ role: string; text: string; timestamp?: unknown; stored: T }>,
	result: ReadonlyArray<{ role: string; text: string; timestamp?: unknown }>,
): { kept: Set<T>; edits: Array<[T, string]>; added: number } {
	const kept = new Set<T>();
	const edits: Array<[T, string]> = [];
	let added = 0;
	for (const message of result) {
		const original =
			originals.find(
				(o) => !kept.has(o.stored) && message.timestamp !== undefined && o.timestamp === message.timestamp && o.role === message.role,
			) ?? originals.find((o) => !kept.has(o.stored) && o.role === message.role && o.text === message.text);
		if (!original) {
			added++;
			continue;
		}
		kept.add(original.stored);
		if (original.text !== message.text) edits.push([original.stored, message.text]);
	}
	return { kept, edits, added };
}

/** Writes `text` into the message's first text part and drops its other text parts. */
function setText(message: StoredMessage, text: string): void {
	let first = true;
	message.parts = message.parts.filter((part) => {
		if (part.type !== "text" || part.synthetic === true) return true;
		if (!first) return false;
		first = false;
		part.text = text;
		return true;
	});
}

/**
 * The tool's metadata after a hook replaced its output (and gave no details of its own): OpenCode stores
 * it with the tool part and shows it, so the original must not survive there. `output` gets the new
 * text; other text that the new text does not contain is dropped, at any depth: the read tool's
 * `preview` and its `display.text` (observed on the real client holding the unredacted secret in the
 * session store). Numbers and flags stay, and so do objects and lists, minus such text.
 */
function scrubMetadata(metadata: Record<string, unknown>, replaced: string): void {
	if ("output" in metadata) metadata.output = replaced;
	scrubText(metadata, replaced, 0, "output");
}

/** Drops from `value` (an object or list, changed in place) every string `replaced` does not contain. */
function scrubText(value: Record<string, unknown> | unknown[], replaced: string, depth: number, keep?: string): void {
	const stale = (item: unknown) => typeof item === "string" && item !== "" && !replaced.includes(item);
	// Past this depth nothing is kept: a deeper structure cannot be checked, so it goes whole.
	const deep = (item: unknown) => depth >= 8 && typeof item === "object" && item !== null;
	if (Array.isArray(value)) {
		const kept = value.filter((item) => !stale(item) && !deep(item));
		value.splice(0, value.length, ...kept);
		for (const item of value)
			if (typeof item === "object" && item !== null) scrubText(item as Record<string, unknown>, replaced, depth + 1);
		return;
	}
	for (const [key, item] of Object.entries(value)) {
		if (key === keep) continue;
		if (stale(item) || deep(item)) delete value[key];
		else if (typeof item === "object" && item !== null) scrubText(item as Record<string, unknown>, replaced, depth + 1);
	}
}

/** The hooks for one project, on `runtime`. */
function opencodeHooks(runtime: InProcessRuntime): Record<string, unknown> {
	const prompts = new Map<string, string>(); // sessionID → the last user prompt
	const injected = new Map<string, Promise<string | undefined>>(); // sessionID + prompt → the text hooks inject
	const calls = new Map<string, MappedTool>(); // callID → the call as hooks saw it

	return {
		"tool.execute.before": async (
			input: { tool: string; sessionID?: unknown; callID: string },
			output: { args: Record<string, unknown> },
		) => {
			if (!isRecord(output.args)) output.args = {};
			const original = output.args;
			const mapped = toBuiltin(OPENCODE_TOOL_RULES, input.tool, original);
			const decision = await runtime.toolCall({
				toolName: mapped.toolName,
				toolCallId: input.callID,
				input: mapped.input,
				event: "tool.execute.before",
				sessionId: typeof input.sessionID === "string" ? input.sessionID : undefined,
			});
			if (decision.block) throw new ToolBlockedError(decision.reason);
			if (decision.input !== undefined) {
				replaceInPlace(original, toAgentInput(mapped, original, decision.input));
				mapped.input = decision.input;
			}
			if (runtime.handles("tool_result")) calls.set(input.callID, mapped);
		},

		"tool.execute.after": async (
			input: { tool: string; callID: string; args?: Record<string, unknown> },
			output: { output?: unknown; metadata?: unknown },
		) => {
			const seen = calls.get(input.callID);
			calls.delete(input.callID);
			if (!runtime.handles("tool_result")) return;
			const mapped = seen ?? toBuiltin(OPENCODE_TOOL_RULES, input.tool, isRecord(input.args) ? input.args : {});
			const text = typeof output.output === "string" ? output.output : JSON.stringify(output.output ?? "");
			const result = await runtime.toolResult({
				type: "tool_result",
				toolName: mapped.toolName,
				toolCallId: input.callID,
				input: mapped.input,
				content: [{ type: "text", text }],
				details: output.metadata ?? {},
				isError: false,
			});
			if (!result) return;
			if (result.details !== undefined) output.metadata = result.details;
			if (result.content !== undefined) {
				const replaced = contentText(result.content);
				output.output = replaced;
				if (result.details === undefined && isRecord(output.metadata)) scrubMetadata(output.metadata, replaced);
			}
		},

		"chat.message": async (input: { sessionID?: string }, output: { message?: { role?: string }; parts?: StoredMessage["parts"] }) => {
			if (!runtime.handles("before_agent_start") || !input.sessionID) return;
			const prompt = textOfParts(output.parts ?? []);
			prompts.set(input.sessionID, prompt);
		},

		"experimental.chat.system.transform": async (input: { sessionID?: string }, output: { system: string[] }) => {
			if (!runtime.handles("before_agent_start") || !input.sessionID) return;
			const prompt = prompts.get(input.sessionID);
			if (prompt === undefined) return;
			const key = `${input.sessionID}\0${prompt}`;
			let text = injected.get(key);
			if (!text) {
				text = runtime.beforeAgentStart(prompt);
				injected.set(key, text);
			}
			const value = await text;
			if (value && Array.isArray(output.system)) output.system.push(value);
		},

		"experimental.chat.messages.transform": async (_input: unknown, output: { messages: StoredMessage[] }) => {
			if (!runtime.handles("context") || !Array.isArray(output.messages)) return;
			const origin = [...toAgentMessages(output.messages)];
			const result = await runtime.context(origin.map(([message]) => message));
			if (!result) return;
			const { kept, edits, added } = matchContext(
				origin.map(([message, stored]) => ({
					role: message.role,
					text: contentText(message.content),
					timestamp: message.timestamp,
					stored,
				})),
				result.map((message) => ({ role: message.role, text: contentText(message.content), timestamp: message.timestamp })),
			);
			for (const [stored, text] of edits) setText(stored, text);
			if (added > 0) runtime.log(`context: ${added} message(s) a hook added cannot be stored in this agent; left out`);
			// Messages hooks never saw (tool-only, system) stay; the ones they dropped go.
			const seen = new Set(origin.map(([, stored]) => stored));
			const next = output.messages.filter((message) => !seen.has(message) || kept.has(message));
			if (next.length !== output.messages.length) output.messages.splice(0, output.messages.length, ...next);
		},

		event: async ({ event }: { event?: { type?: string } }) => {
			switch (event?.type) {
				case "session.created":
					return runtime.notify({ type: "session_start" });
				case "session.idle":
					return runtime.notify({ type: "agent_end", messages: [] });
				case "session.deleted":
					return runtime.notify({ type: "session_shutdown" });
			}
		},
	};
}

/** The in-process part of OpenCode's and Kilo Code's descriptors. */
export const opencodeFamily: InProcessAgent = { hooks: opencodeHooks };
