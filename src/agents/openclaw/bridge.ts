import { answerJson, askAsDeny, isRecord, nonEmpty, stringField } from "../_shared/answer.ts";
import { any, bool, obj, opt, str, type Shape } from "../_shared/fields.ts";
import { contentText } from "../_shared/text.ts";
import { shellRule, type ToolRule } from "../_shared/tools.ts";
import type { AgentBridge, AgentEventSpec, AgentToolCall, Outcome, Payload } from "../_shared/bridge-types.ts";
import type { HookSubagent } from "../../hooks/types.ts";
import { OPENCLAW } from "./protocol.ts";

/**
 * OpenClaw: `install openclaw` writes a native OpenClaw plugin (plugin.ts) whose hooks forward each
 * event to `bridge openclaw` (through the hook server's socket, else as a process). The payload is
 * the plugin's own object, `type` naming the event; the answer is a JSON object the plugin applies:
 *
 * - `before_tool_call` → `tool_call`: `{block: true, blockReason}` (the model reads the reason), or
 *   `{params}`, the whole new input (the plugin returns it so that OpenClaw's shallow merge gives
 *   exactly it). `exec {command}` is `bash {command}`; `read`, `write`, `edit` have our names and
 *   fields. A call through OpenClaw's `tool_call` tool (`{id, args}`) is judged as the tool it calls,
 *   and again when OpenClaw runs that tool (its own `before_tool_call`); a rewrite of it rewrites `args`.
 * - `tool_result` (the plugin's tool-result middleware, what the model is about to see) → `tool_result`:
 *   `{content, details?}` replaces the output.
 * - `before_prompt_build` → `before_agent_start`: `{prependContext}`, put before the user's prompt.
 * A subagent's calls (Gateway runs: `sessionKey` `agent:<id>:subagent:<uuid>`) name it in `ctx.agent.subagent`.
 */

const common: Shape = { type: str, cwd: str, sessionId: opt(str), sessionKey: opt(str), parentSessionId: opt(str) };

/** The tool a call runs: the one named by OpenClaw's `tool_call` wrapper (`{id, args}`), else the call's own. */
function called(p: Payload): { name: string; input: Record<string, unknown> } {
	const name = p.toolName as string;
	const params = isRecord(p.params) ? p.params : {};
	if (name === "tool_call" && typeof params.id === "string" && isRecord(params.args)) return { name: params.id, input: params.args };
	return { name, input: params };
}

interface OpenClawToolCall extends AgentToolCall {
	content: unknown;
}

export const openclawEvents: Record<string, AgentEventSpec> = {
	before_tool_call: {
		fields: { ...common, toolName: str, toolCallId: opt(str), params: obj() },
		to: "tool_call",
		call: (p) => ({ ...called(p), id: stringField(p, "toolCallId") }),
	},
	tool_result: {
		fields: { ...common, toolName: str, toolCallId: opt(str), args: opt(obj()), content: any, isError: opt(bool) },
		to: "tool_result",
		call: (p): OpenClawToolCall => ({
			name: p.toolName as string,
			input: isRecord(p.args) ? p.args : {},
			id: stringField(p, "toolCallId"),
			output: p.details,
			content: p.content,
			isError: p.isError === true,
		}),
	},
	before_prompt_build: { fields: { ...common, prompt: str }, to: "before_agent_start", prompt: (p) => p.prompt as string },
};

/** OpenClaw's coding tools (pi's, by name and fields). */
const OPENCLAW_TOOLS: ToolRule[] = [
	shellRule("exec"),
	{ agent: "read", ours: "read", fields: { path: "path", offset: "offset", limit: "limit" } },
	{ agent: "write", ours: "write", fields: { path: "path", content: "content" } },
	{ agent: "edit", ours: "edit", fields: { path: "path", oldText: "oldText", newText: "newText" } },
];

const SUBAGENT_KEY = /^agent:[^:]+:subagent:(.+)$/;

const deny = (reason: string) => ({ block: true, blockReason: nonEmpty(reason, "blocked by an xcsh hook") });

function body(payload: Payload, outcome: Outcome, event: string, warn: (line: string) => void): Record<string, unknown> {
	switch (outcome.kind) {
		case "deny":
			return deny(outcome.reason);
		case "ask":
			// No ask of OpenClaw's own was seen to hold a call for a person here: our deny, naming the ask.
			return deny(askAsDeny(outcome.reason, "OpenClaw"));
		case "rewrite": {
			const params = isRecord(payload.params) ? payload.params : {};
			// The wrapper's own params keep its tool's id; only what that tool gets is new.
			return { params: called(payload).input === params ? outcome.input : { ...params, args: outcome.input } };
		}
		case "replace":
			return {
				...(outcome.text === undefined ? {} : { content: [{ type: "text", text: outcome.text }] }),
				...(outcome.details === undefined ? {} : { details: outcome.details }),
			};
		case "context":
			return { prependContext: outcome.text };
		case "deny-start":
		case "cancel":
		case "messages":
		case "approve":
			warn(`openclaw ${event}: OpenClaw's plugin cannot take this answer (${outcome.kind}); it was ignored`);
			return {};
		case "none":
			return {};
	}
}

/** The OpenClaw bridge (the plugin's half of the protocol is plugin.ts). */
export const openclawBridge: AgentBridge = {
	name: OPENCLAW.name,
	events: openclawEvents,
	tools: OPENCLAW_TOOLS,
	timeoutSeconds: OPENCLAW.timeoutSeconds,
	eventName: (payload, hint) => hint ?? stringField(payload, "type"),
	projectDirs: (payload) => [stringField(payload, "cwd")],
	// A subagent's calls count in the session that started it (the plugin notes which one, `parentSessionId`).
	sessionId: (payload) =>
		stringField(payload, "parentSessionId") ?? stringField(payload, "sessionId") ?? stringField(payload, "sessionKey"),
	subagent: (payload): HookSubagent | undefined => {
		const id = SUBAGENT_KEY.exec(stringField(payload, "sessionKey") ?? "")?.[1];
		return id ? { id } : undefined;
	},
	outputText: (c) => contentText((c as OpenClawToolCall).content),
	answer: (event, payload, outcome, notes) => answerJson(body(payload, outcome, event, notes.warn)),
	denyUnknown: (reason) => JSON.stringify(deny(reason)),
};
