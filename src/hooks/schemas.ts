import { Kind, type Static, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { AgentMessageSchema, ImageContentSchema, ToolContentSchema, ToolResultMessageSchema } from "../messages.ts";

/*
 * Every hook event and every handler result as a TypeBox schema. The TypeScript types in
 * `types.ts` are derived from these, so the schemas the CLI validates JSON with and the types
 * hook authors write against cannot drift apart. Payload fields follow the seed's upstream.
 */

const event = <T extends string, P extends Record<string, TSchema>>(type: T, props: P) =>
	Type.Object({ type: Type.Literal(type), ...props });

/** An AbortSignal travels in-process only; JSON input never carries one. Checked as `Any`. */
const Signal = Type.Optional(Type.Unsafe<AbortSignal>({ [Kind]: "Any", description: "AbortSignal (in-process only)" }));
const Int = Type.Integer({ minimum: 0 });
const Entries = Type.Array(Type.Record(Type.String(), Type.Unknown()));
const NullableId = Type.Union([Type.String(), Type.Null()]);

export const CompactionResultSchema = Type.Object({
	summary: Type.String(),
	firstKeptEntryId: Type.String(),
	tokensBefore: Type.Optional(Type.Number()),
	details: Type.Optional(Type.Unknown()),
});

export const TreePreparationSchema = Type.Object({
	targetId: Type.String(),
	oldLeafId: NullableId,
	commonAncestorId: NullableId,
	entriesToSummarize: Entries,
	userWantsSummary: Type.Boolean(),
});

export const TodoItemSchema = Type.Object({
	content: Type.String(),
	status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]),
});

/** An MCP tool: the server offering it (`""` where the agent does not name it) and its name there. */
export const McpToolSchema = Type.Object({ server: Type.String(), tool: Type.String({ minLength: 1 }) });

/**
 * What bridges add to a tool event: the agent's own tool name (`run_shell_command`,
 * `mcp_files_delete_path`) beside our `toolName`, and for an MCP tool its server and tool, while
 * `toolName` is then `mcp__<server>__<tool>` in every agent.
 */
const ToolOrigin = {
	agentToolName: Type.Optional(Type.String()),
	mcp: Type.Optional(McpToolSchema),
};

/** A subagent, as bridges name it (`ctx.agent.subagent`, `subagent_start` / `subagent_end`). */
export const SubagentSchema = Type.Object({
	id: Type.String({ description: 'The agent\'s id of the subagent (`agent_id`); `""` where the agent names none (Cursor subagentStop).' }),
	type: Type.Optional(Type.String({ description: "Its kind as the agent names it (`Explore`, `worker`)." })),
	parentId: Type.Optional(Type.String({ description: "The agent that started it, when the agent says (Copilot `parent_agent_id`)." })),
});

/** Schemas of every event, keyed by event type. */
export const HookEventSchemas = {
	session_start: event("session_start", {}),
	session_before_switch: event("session_before_switch", {
		reason: Type.Union([Type.Literal("new"), Type.Literal("resume"), Type.Literal("fork")]),
		targetSessionFile: Type.Optional(Type.String()),
	}),
	session_switch: event("session_switch", {
		reason: Type.Union([Type.Literal("new"), Type.Literal("resume"), Type.Literal("fork")]),
		previousSessionFile: Type.Optional(Type.String()),
	}),
	session_before_branch: event("session_before_branch", { entryId: Type.String() }),
	session_branch: event("session_branch", { previousSessionFile: Type.Optional(Type.String()) }),
	session_before_compact: event("session_before_compact", {
		preparation: Type.Record(Type.String(), Type.Unknown()),
		branchEntries: Entries,
		customInstructions: Type.Optional(Type.String()),
		signal: Signal,
	}),
	"session.compacting": event("session.compacting", {
		sessionId: Type.Optional(Type.String()),
		messages: Type.Optional(Type.Array(AgentMessageSchema)),
	}),
	session_compact: event("session_compact", {
		compactionEntry: Type.Record(Type.String(), Type.Unknown()),
		fromExtension: Type.Boolean(),
	}),
	session_before_tree: event("session_before_tree", { preparation: TreePreparationSchema, signal: Signal }),
	session_tree: event("session_tree", {
		newLeafId: NullableId,
		oldLeafId: NullableId,
		summaryEntry: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
		fromExtension: Type.Optional(Type.Boolean()),
	}),
	session_shutdown: event("session_shutdown", {}),
	context: event("context", { messages: Type.Array(AgentMessageSchema) }),
	before_agent_start: event("before_agent_start", {
		prompt: Type.String(),
		images: Type.Optional(Type.Array(ImageContentSchema)),
	}),
	agent_start: event("agent_start", {}),
	agent_end: event("agent_end", { messages: Type.Array(AgentMessageSchema) }),
	turn_start: event("turn_start", { turnIndex: Int, timestamp: Type.Number() }),
	turn_end: event("turn_end", {
		turnIndex: Int,
		message: AgentMessageSchema,
		toolResults: Type.Array(ToolResultMessageSchema),
	}),
	auto_compaction_start: event("auto_compaction_start", {
		reason: Type.Union([Type.Literal("threshold"), Type.Literal("overflow")]),
	}),
	auto_compaction_end: event("auto_compaction_end", {
		result: Type.Optional(CompactionResultSchema),
		aborted: Type.Boolean(),
		willRetry: Type.Boolean(),
	}),
	auto_retry_start: event("auto_retry_start", {
		attempt: Int,
		maxAttempts: Int,
		delayMs: Type.Number({ minimum: 0 }),
		errorMessage: Type.String(),
	}),
	auto_retry_end: event("auto_retry_end", {
		success: Type.Boolean(),
		attempt: Int,
		finalError: Type.Optional(Type.String()),
	}),
	ttsr_triggered: event("ttsr_triggered", {
		rules: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
	}),
	todo_reminder: event("todo_reminder", { todos: Type.Array(TodoItemSchema), attempt: Int, maxAttempts: Int }),
	tool_call: event("tool_call", {
		toolName: Type.String({ minLength: 1 }),
		...ToolOrigin,
		toolCallId: Type.String(),
		input: Type.Record(Type.String(), Type.Unknown()),
	}),
	tool_result: event("tool_result", {
		toolName: Type.String({ minLength: 1 }),
		...ToolOrigin,
		toolCallId: Type.String(),
		input: Type.Record(Type.String(), Type.Unknown()),
		content: ToolContentSchema,
		details: Type.Unknown(),
		isError: Type.Boolean(),
	}),
	/**
	 * The agent is about to show its own approval prompt for a tool call (Claude Code, Codex and Qwen Code
	 * `PermissionRequest`, Copilot CLI `permissionRequest`); `toolName` and `input` as for `tool_call`,
	 * `suggestions` the agent's own (e.g. rules it offers to add). See docs/ask.md.
	 */
	permission_request: event("permission_request", {
		toolName: Type.String({ minLength: 1 }),
		...ToolOrigin,
		toolCallId: Type.Optional(Type.String()),
		input: Type.Record(Type.String(), Type.Unknown()),
		suggestions: Type.Optional(Type.Array(Type.Unknown())),
	}),
	subagent_start: event("subagent_start", { subagent: SubagentSchema }),
	subagent_end: event("subagent_end", {
		subagent: SubagentSchema,
		lastMessage: Type.Optional(Type.String()),
		transcriptPath: Type.Optional(Type.String()),
	}),
} as const;

const Cancel = Type.Optional(Type.Boolean());
/** A result object: an unknown top-level key (`{blok: true}`) is an error, never silently ignored. */
const result = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });

/** Schemas of the results handlers may return, for the events that take one. */
export const HookResultSchemas = {
	session_before_switch: result({ cancel: Cancel }),
	session_before_branch: result({ cancel: Cancel, skipConversationRestore: Type.Optional(Type.Boolean()) }),
	session_before_compact: result({ cancel: Cancel, compaction: Type.Optional(CompactionResultSchema) }),
	"session.compacting": result({
		context: Type.Optional(Type.Array(Type.String())),
		prompt: Type.Optional(Type.String()),
		preserveData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
	}),
	session_before_tree: result({
		cancel: Cancel,
		summary: Type.Optional(Type.Object({ summary: Type.String(), details: Type.Optional(Type.Unknown()) })),
	}),
	context: result({ messages: Type.Optional(Type.Array(AgentMessageSchema)) }),
	before_agent_start: result({
		message: Type.Optional(
			Type.Object({
				customType: Type.String(),
				content: Type.Union([Type.String(), ToolContentSchema]),
				display: Type.Boolean(),
				details: Type.Optional(Type.Unknown()),
			}),
		),
	}),
	/**
	 * `input`: a whole replacement of the tool's input (docs/contract.md#the-runner), seen by later handlers and run by the tool.
	 * `ask`: the person decides (block beats ask beats allow; see docs/ask.md); `reason` is what they are shown.
	 */
	tool_call: result({
		block: Type.Optional(Type.Boolean()),
		ask: Type.Optional(Type.Boolean()),
		reason: Type.Optional(Type.String()),
		input: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
	}),
	/**
	 * Answers the agent's approval prompt: `allow` approves without asking, `deny` refuses with `reason`
	 * (the first deny wins); no result lets the agent ask as usual.
	 */
	permission_request: result({
		decision: Type.Union([Type.Literal("allow"), Type.Literal("deny")]),
		reason: Type.Optional(Type.String()),
	}),
	/** `block`: the subagent is not started, where the agent honours it (Cursor); elsewhere reported on stderr. */
	subagent_start: result({ block: Type.Optional(Type.Boolean()), reason: Type.Optional(Type.String()) }),
	tool_result: result({
		content: Type.Optional(ToolContentSchema),
		details: Type.Optional(Type.Unknown()),
		isError: Type.Optional(Type.Boolean()),
	}),
} as const;

/** Every event type, in the order of the spec. */
export type HookEventType = keyof typeof HookEventSchemas;
export const HOOK_EVENT_TYPES = Object.keys(HookEventSchemas) as HookEventType[];

/** The event payload of each event type. */
export type HookEventMap = { [K in HookEventType]: Static<(typeof HookEventSchemas)[K]> };
/** The result each event type's handlers may return (`undefined` where results are ignored). */
export type HookResultMap = {
	[K in HookEventType]: K extends keyof typeof HookResultSchemas ? Static<(typeof HookResultSchemas)[K]> : undefined;
};
