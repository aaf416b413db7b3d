import type { Shape } from "./fields.ts";
import type { TranscriptMessage } from "./jsonl.ts";
import type { ToolRule } from "./tools.ts";
import type { HookEventType, HookSubagent } from "../../hooks/types.ts";
import type { AgentMessage } from "../../messages.ts";

/** A hook payload that passed its event's {@link Shape} check. */
export type Payload = Record<string, unknown>;

/**
 * The events of ours an agent event can become: any entry of the event table (`hooks/events.ts`) whose
 * `bridge` says how a payload becomes it, or whose mapping builds it (`event`).
 */
export type BridgedEventType = HookEventType;

/** An MCP tool: the server that offers it (`""` where the agent does not name it) and the tool's own name there. */
export interface McpTool {
	server: string;
	tool: string;
}

/** What a `SubagentStart` / `SubagentStop` payload says about the subagent. */
export interface AgentSubagentEvent {
	subagent: HookSubagent;
	/** `subagent_end`: the subagent's last message, when given. */
	lastMessage?: string | undefined;
	/** `subagent_end`: the subagent's own transcript, when given. */
	transcriptPath?: string | undefined;
}

/** A tool call as the agent describes it, before the tool names are mapped. */
export interface AgentToolCall {
	/** The agent's tool name (`Bash`, `run_shell_command`, `mcp__x__y`). */
	name: string;
	/** The agent's whole input object. */
	input: Record<string, unknown>;
	/** The agent's call id, when it sends one. */
	id?: string | undefined;
	/** Post-tool events: the tool's output in the agent's own shape. */
	output?: unknown;
	/** Post-tool events: the call failed. */
	isError?: boolean;
}

/** One agent event: the payload fields it must carry and what it becomes. */
export interface AgentEventSpec {
	/** Required and optional payload fields (unknown extra fields are tolerated). */
	fields: Shape;
	/** Our event, or `null` when it has no counterpart (answered "no opinion"). */
	to: BridgedEventType | null;
	/** Tool events (and `permission_request`): the call the payload describes. */
	call?(payload: Payload): AgentToolCall;
	/** `permission_request`: the agent's own suggestions for its prompt, when it sends any. */
	suggestions?(payload: Payload): unknown[] | undefined;
	/** Why this occurrence has no counterpart after all (answered "no opinion"), or `undefined` (Qwen's repeated prompt events). */
	skip?(payload: Payload): string | undefined;
	/** `subagent_start` / `subagent_end`: the subagent; default: the bridge's {@link AgentBridge.subagent} of the payload, nothing more. */
	subagentEvent?(payload: Payload): AgentSubagentEvent | undefined;
	/** `context`: the messages about to be sent to the model, in our form. */
	messages?(payload: Payload): AgentMessage[];
	/** `before_agent_start`: the user's prompt. */
	prompt?(payload: Payload): string;
	/** `session_before_compact`: what is known about the compaction (becomes `preparation`). */
	compaction?(payload: Payload): { preparation: Record<string, unknown>; customInstructions?: string | undefined };
	/**
	 * The event's own fields (all but `type`), built by the agent; when set, the table's `bridge` kind is
	 * not used. The one way for an event whose entry names no `bridge` kind.
	 */
	event?(payload: Payload): Record<string, unknown>;
}

/** What the hooks decided, in agent-neutral terms; each agent writes it in its own protocol. */
export type Outcome =
	| { kind: "none" }
	/** Block the tool call (also: every failure on a guard event). */
	| { kind: "deny"; reason: string }
	/**
	 * A hook asks: the agent's own ask where it honours one, else a deny with the reason (never an
	 * allow). `input`: the agent's whole input when a hook also rewrote it (an agent that cannot carry a
	 * rewrite with its ask denies).
	 */
	| { kind: "ask"; reason: string; input?: Record<string, unknown> }
	/** Run the call with this input: the agent's whole input object, in its own field names. */
	| { kind: "rewrite"; input: Record<string, unknown> }
	/** Replace the tool's output: `text` when a hook replaced the content; `details` when it replaced the raw output. */
	| { kind: "replace"; text?: string; details?: unknown }
	/** `context`: the hooks' messages replace the ones they were given. */
	| { kind: "messages"; messages: AgentMessage[] }
	/** Add this text to the model's context. */
	| { kind: "context"; text: string }
	/** Cancel the compaction. */
	| { kind: "cancel"; reason: string }
	/** Do not start the subagent (`subagent_start` blocked). */
	| { kind: "deny-start"; reason: string }
	/** `permission_request`: approve the call without the agent's prompt (a deny there is `deny`). */
	| { kind: "approve" };

/** Side information for an answer: notifications of hooks and a sink for what the agent cannot take. */
export interface AnswerNotes {
	/** Lines hooks showed with `ctx.ui.notify` (also written to stderr). */
	messages: string[];
	/** The events the loaded hooks handle (set once the hooks are loaded), for agents that skip calls nobody listens to. */
	handles?: readonly string[];
	/** Reports on stderr what the agent's protocol cannot carry. */
	warn(line: string): void;
}

/** Everything the shared flow needs to speak one agent's protocol. */
export interface AgentBridge {
	/** The `bridge <agent>` name; also the folder of its session files. */
	name: string;
	/** The agent's events (names as the agent spells them). */
	events: Record<string, AgentEventSpec>;
	/** Maps the agent's tools to the built-in ones (docs/contract.md#bridges). */
	tools: ToolRule[];
	/**
	 * Seconds after which the bridge answers by itself (a guard: deny): below the agent's default hook
	 * timeout and the 60 s `install` writes, since most agents let a call run when a hook times out.
	 */
	timeoutSeconds: number;
	/** The agent's event name: from `--event`, the payload, or (Copilot camelCase) its fields. */
	eventName(payload: unknown, hint: string | undefined): string | undefined;
	/** The event name the payload itself states, no guessing from its fields; default `eventName(payload, undefined)`. */
	payloadEvent?(payload: unknown): string | undefined;
	/** Candidate project directories, best first (the agent's env variables, then the payload). */
	projectDirs(payload: Payload, env: Record<string, string | undefined>): Array<string | undefined>;
	/** The agent's session id, for the session file. */
	sessionId(payload: Payload): string | undefined;
	/**
	 * The subagent that made this call, from the payload's own fields (`ctx.agent.subagent`); `undefined`
	 * for the main agent. Without the method the agent says nothing about subagents (Gemini).
	 */
	subagent?(payload: Payload): HookSubagent | undefined;
	/**
	 * The MCP server and tool behind a tool call, by the agent's own name form and fields (`event.mcp`);
	 * `undefined` for a tool that is not an MCP tool. A name that only contains `__` or `-` is MCP
	 * only where that is the agent's form.
	 */
	mcpTool?(call: AgentToolCall, payload: Payload, event: string): McpTool | undefined;
	/** The agent's transcript file, when the payload names one. */
	transcript?(payload: Payload): string | undefined;
	/** How to read that transcript (docs/agents.md#sessions-and-transcripts); without one the session view holds the hooks' entries only. */
	readTranscript?(text: string): TranscriptMessage[];
	/** The text a tool output stands for (our `tool_result` content). */
	outputText(call: AgentToolCall): string;
	/** The exact stdout for an outcome on an event; `""` writes nothing. */
	answer(event: string, payload: Payload, outcome: Outcome, notes: AnswerNotes): string;
	/** The deny answer when the event itself is unknown (stdin unreadable): fail closed. */
	denyUnknown(reason: string): string;
}
