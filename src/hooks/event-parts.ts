import { Kind, type TProperties, type TSchema, Type } from "@sinclair/typebox";

/*
 * The pieces the event table's schemas (`events.ts`) are built of. Payload fields follow the seed's
 * upstream.
 */

/** An event's schema: its `type` literal and its fields. */
export const eventSchema = <T extends string, P extends Record<string, TSchema>>(type: T, props: P) =>
	Type.Object({ type: Type.Literal(type), ...props });

/** An AbortSignal travels in-process only; JSON input never carries one. Checked as `Any`. */
export const Signal = Type.Optional(Type.Unsafe<AbortSignal>({ [Kind]: "Any", description: "AbortSignal (in-process only)" }));
export const Int = Type.Integer({ minimum: 0 });
export const Entries = Type.Array(Type.Record(Type.String(), Type.Unknown()));
export const NullableId = Type.Union([Type.String(), Type.Null()]);

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
export const ToolOrigin = {
	agentToolName: Type.Optional(Type.String()),
	mcp: Type.Optional(McpToolSchema),
};

/** A subagent, as bridges name it (`ctx.agent.subagent`, `subagent_start` / `subagent_end`). */
export const SubagentSchema = Type.Object({
	id: Type.String({ description: 'The agent\'s id of the subagent (`agent_id`); `""` where the agent names none (Cursor subagentStop).' }),
	type: Type.Optional(Type.String({ description: "Its kind as the agent names it (`Explore`, `worker`)." })),
	parentId: Type.Optional(Type.String({ description: "The agent that started it, when the agent says (Copilot `parent_agent_id`)." })),
});

export const Cancel = Type.Optional(Type.Boolean());
/** A result object: an unknown top-level key (`{blok: true}`) is an error, never silently ignored. */
export const resultSchema = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });
