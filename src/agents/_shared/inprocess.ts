import type { AgentMessage, HookEvent, ToolResultEventResult } from "../../hooks/types.ts";

/*
 * Agents that load plugins into their own process (OpenCode, Kilo Code): what their folder gives the
 * generic in-process runtime (src/inprocess/), which owns loading, trust, reload and fail-closed.
 * The agent's part only translates its plugin hooks into our events and our answers back.
 */

/** A `tool_call` as the runtime decides it: a block with its reason, or the input the tool must run with. */
export type InProcessDecision = { block: true; reason: string } | { block: false; input?: Record<string, unknown> | undefined };

/** A tool call as the agent's plugin hands it to the runtime. */
export interface InProcessToolCall {
	toolName: string;
	toolCallId: string;
	input: Record<string, unknown>;
	/** The agent's hook that asked (`tool.execute.before`), as the decision log names it. */
	event: string;
	/** The agent's session id, when it gives one. */
	sessionId?: string | undefined;
}

/** What the runtime offers an agent's plugin hooks. Never throws except {@link toolCall}'s caller throwing the block. */
export interface InProcessRuntime {
	/** Decides a tool call (fail closed: load errors, handler errors, timeouts and invalid results block) and puts it in the decision log. */
	toolCall(call: InProcessToolCall): Promise<InProcessDecision>;
	/** Runs `tool_result` (chained); `undefined` when no hook changed anything. */
	toolResult(event: Extract<HookEvent, { type: "tool_result" }>): Promise<ToolResultEventResult | undefined>;
	/** Runs `before_agent_start` for one prompt: the text of the message hooks inject, if any. */
	beforeAgentStart(prompt: string): Promise<string | undefined>;
	/** Runs `context` over the messages; `undefined` when no hook handles it (nothing to convert back). */
	context(messages: AgentMessage[]): Promise<AgentMessage[] | undefined>;
	/** Whether any loaded hook handles `type` (so a hook with nothing to do costs no conversion). */
	handles(type: string): boolean;
	/** Emits a notification (not awaited by the agent); errors go to the hooks' error listeners. */
	notify(event: HookEvent): void;
	/** A line in the agent's log (stderr). */
	log(line: string): void;
}

/** What an in-process agent's descriptor gives: its plugin hooks for a project directory, on our runtime. */
export interface InProcessAgent {
	/** The agent's hooks object, built on `runtime` (the plugin's factory result). */
	hooks(runtime: InProcessRuntime, input: { directory: string }): Record<string, unknown>;
}
