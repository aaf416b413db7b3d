import { PI } from "./protocol.ts";
import { answerJson, askAsDeny, nonEmpty, stringField } from "../_shared/answer.ts";
import { any, arr, bool, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { toOurMessages, toPiMessages } from "./messages.ts";
import { contentText } from "../_shared/text.ts";
import { shellRule, type ToolRule } from "../_shared/tools.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";

/**
 * pi (docs/agents/pi.md): `install pi` writes one extension file into pi's extensions folder
 * (extension.ts), which forwards each pi event it handles to `xcsh-hooks bridge pi` as one call. The
 * payload is pi's own event object (`type` names the event) plus `cwd` (pi's `ctx.cwd`) and `sessionId`;
 * the answer is a JSON object the extension applies pi's way:
 *
 * - `tool_call` → `tool_call`: `{block: true, reason}` (the extension returns it; the model reads the
 *   reason); a rewrite is `{input}` (the whole input): pi ignores a returned input, so the extension
 *   mutates `event.input` in place.
 * - `tool_result` → `tool_result`: `{content, details?}` replaces the output. `isError` is never sent:
 *   our contract does not apply a hook's `isError`, pi would.
 * - `before_agent_start` → `before_agent_start`: `{message: {customType, content, display}}`, an extra
 *   user message in the first request.
 * - `context` → `context`: pi's messages in our form (messages.ts); `{messages}`, pi's whole list as
 *   the hooks left it, replaces them (pi's way: a returned list, chained). Nothing when unchanged.
 * - `session_start` and `before_agent_start` answers carry `handles`: the events the loaded hooks
 *   handle, so that the extension forwards `context` (once per model turn) only when one listens.
 * - `session_start`, `session_shutdown`, `agent_end` → the same; `session_before_compact` → the same
 *   (`{cancel: true}`).
 *
 * The hooks run in our runner, so they get our API and semantics in pi (the D.3.2 difference table):
 * `pi.logger`/`pi.typebox`/`pi.pi`, `{input}` rewrites re-validated, strict result validation, an
 * unknown event name a load error that blocks every tool call, handler timeouts, trust.
 * Cannot: pi's `input`, `before_provider_request` and message events are not forwarded
 * (each would cost a process per model turn); tool output images reach hooks as their text only.
 */

const common: Shape = { type: str, cwd: str, sessionId: opt(str) };
const toolFields: Shape = { ...common, toolName: str, toolCallId: str, input: obj() };

/** A pi tool call: the output's content, and `details` as the raw output hooks see. */
interface PiToolCall extends AgentToolCall {
	content: unknown;
}

const call = (p: Payload): PiToolCall => ({
	name: p.toolName as string,
	input: p.input as Record<string, unknown>,
	id: p.toolCallId as string,
	output: p.details,
	content: p.content,
	isError: p.isError === true,
});

/** The pi events the extension forwards, and what each becomes. */
export const piEvents: Record<string, AgentEventSpec> = {
	tool_call: { fields: toolFields, to: "tool_call", call },
	tool_result: { fields: { ...toolFields, content: any, isError: opt(bool) }, to: "tool_result", call },
	before_agent_start: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
	context: { fields: { ...common, messages: arr }, to: "context", messages: (p) => toOurMessages(p.messages as unknown[]).messages },
	session_start: { fields: common, to: "session_start" },
	session_shutdown: { fields: common, to: "session_shutdown" },
	agent_end: { fields: common, to: "agent_end" },
	session_before_compact: {
		fields: { ...common, preparation: opt(obj()), customInstructions: opt(str) },
		to: "session_before_compact",
		compaction: (p) => ({
			preparation: (p.preparation as Record<string, unknown> | undefined) ?? {},
			customInstructions: stringField(p, "customInstructions"),
		}),
	},
};

/** pi's built-in tools have our names and fields (its `edit` with an `edits` list keeps its own input). */
const PI_TOOLS: ToolRule[] = [
	shellRule("bash"),
	{ agent: "read", ours: "read", fields: { path: "path", offset: "offset", limit: "limit" } },
	{ agent: "write", ours: "write", fields: { path: "path", content: "content" } },
	{ agent: "edit", ours: "edit", fields: { path: "path", oldText: "oldText", newText: "newText" } },
];

const deny = (reason: string) => ({ block: true, reason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(event: string, payload: Payload, outcome: Outcome, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return deny(outcome.reason);
		case "ask":
			// The extension answers pi's tool_call with a block or nothing: an ask is our deny, naming it.
			return deny(askAsDeny(outcome.reason, "pi"));
		case "rewrite":
			return { input: outcome.input };
		case "replace":
			return {
				...(outcome.text === undefined ? {} : { content: [{ type: "text", text: outcome.text }] }),
				...(outcome.details === undefined ? {} : { details: outcome.details }),
			};
		case "context":
			return { message: { customType: "xcsh-hooks", content: outcome.text, display: false } };
		case "messages": {
			const piMessages = Array.isArray(payload.messages) ? (payload.messages as unknown[]) : [];
			const { messages, from } = toOurMessages(piMessages);
			const next = toPiMessages(piMessages, messages, from, outcome.messages);
			return next ? { messages: next } : {};
		}
		case "cancel":
			return { cancel: true };
		case "deny-start":
			warn(`pi ${event}: pi has no subagents; the hook's block was ignored`);
			return {};
		case "approve": // no approval-prompt event in this agent
		case "none":
			return {};
	}
}

/** The pi bridge (the extension's half of the protocol is extension.ts). */
export const piBridge: AgentBridge = {
	name: PI.name,
	events: piEvents,
	tools: PI_TOOLS,
	timeoutSeconds: PI.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "type"),
	projectDirs: (payload) => [stringField(payload, "cwd")],
	sessionId: (payload) => stringField(payload, "sessionId"),
	outputText: (c) => contentText((c as PiToolCall).content),
	answer: (event, payload, outcome, notes) => {
		const answer = body(event, payload, outcome, notes.warn);
		// The extension's cue for skipping `context` calls; absent when the hooks never loaded (it then forwards).
		if ((event === "session_start" || event === "before_agent_start") && notes.handles) answer.handles = [...notes.handles].sort();
		return answerJson(answer);
	},
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
