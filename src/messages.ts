import { type Static, Type } from "@sinclair/typebox";

/** Text block of a message or tool result. */
export const TextContentSchema = Type.Object({ type: Type.Literal("text"), text: Type.String() });
export type TextContent = Static<typeof TextContentSchema>;

/** Base64 image block. */
export const ImageContentSchema = Type.Object({
	type: Type.Literal("image"),
	data: Type.String(),
	mimeType: Type.String(),
});
export type ImageContent = Static<typeof ImageContentSchema>;

/** Model reasoning block of an assistant message. */
export const ThinkingContentSchema = Type.Object({ type: Type.Literal("thinking"), thinking: Type.String() });
export type ThinkingContent = Static<typeof ThinkingContentSchema>;

/** A tool call requested by the assistant. */
export const ToolCallContentSchema = Type.Object({
	type: Type.Literal("toolCall"),
	id: Type.String(),
	name: Type.String(),
	arguments: Type.Record(Type.String(), Type.Unknown()),
});
export type ToolCallContent = Static<typeof ToolCallContentSchema>;

/** What a tool returns and what `tool_result` hooks may replace. */
export const ToolContentSchema = Type.Array(Type.Union([TextContentSchema, ImageContentSchema]));
export type ToolContent = Static<typeof ToolContentSchema>;

export const UserMessageSchema = Type.Object({
	role: Type.Literal("user"),
	content: Type.Union([Type.String(), ToolContentSchema]),
	timestamp: Type.Optional(Type.Number()),
});
export type UserMessage = Static<typeof UserMessageSchema>;

export const AssistantMessageSchema = Type.Object({
	role: Type.Literal("assistant"),
	content: Type.Array(Type.Union([TextContentSchema, ThinkingContentSchema, ToolCallContentSchema])),
	timestamp: Type.Optional(Type.Number()),
	model: Type.Optional(Type.String()),
	stopReason: Type.Optional(Type.String()),
});
export type AssistantMessage = Static<typeof AssistantMessageSchema>;

export const ToolResultMessageSchema = Type.Object({
	role: Type.Literal("toolResult"),
	toolCallId: Type.String(),
	toolName: Type.String(),
	content: ToolContentSchema,
	details: Type.Optional(Type.Unknown()),
	isError: Type.Boolean(),
	timestamp: Type.Optional(Type.Number()),
});
export type ToolResultMessage = Static<typeof ToolResultMessageSchema>;

/** A message sent by a hook (`pi.sendMessage`): persisted, shown when `display`, seen by the model. */
export const CustomMessageSchema = Type.Object({
	role: Type.Literal("custom"),
	customType: Type.String(),
	content: Type.Union([Type.String(), ToolContentSchema]),
	display: Type.Boolean(),
	details: Type.Optional(Type.Unknown()),
	timestamp: Type.Optional(Type.Number()),
});
export type CustomMessage<T = unknown> = Omit<Static<typeof CustomMessageSchema>, "details"> & { details?: T };

/** Any message of an agent conversation. */
export const AgentMessageSchema = Type.Union([UserMessageSchema, AssistantMessageSchema, ToolResultMessageSchema, CustomMessageSchema]);
export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage | CustomMessage;

/** The part of a custom message a hook supplies; the host adds `role` and `timestamp`. */
export type HookMessage<T = unknown> = Pick<CustomMessage<T>, "customType" | "content" | "display" | "details">;
