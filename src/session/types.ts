import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type AgentMessage, AgentMessageSchema, ToolContentSchema } from "../messages.ts";

/** Fields every entry carries: a short random `id`, the entry it follows, and an ISO time. */
const entryBase = {
	id: Type.String(),
	parentId: Type.Union([Type.String(), Type.Null()]),
	timestamp: Type.String(),
};

/** First line of a session file. */
export const SessionHeaderSchema = Type.Object({
	type: Type.Literal("session"),
	version: Type.Literal(1),
	id: Type.String(),
	timestamp: Type.String(),
	cwd: Type.String(),
	parentSession: Type.Optional(Type.String()),
});
export type SessionHeader = Static<typeof SessionHeaderSchema>;

/** A conversation message (user, assistant, tool result or hook message). */
export const SessionMessageEntrySchema = Type.Object({
	type: Type.Literal("message"),
	...entryBase,
	message: AgentMessageSchema,
});
export type SessionMessageEntry = Omit<Static<typeof SessionMessageEntrySchema>, "message"> & {
	message: AgentMessage;
};

/** Hook state (`pi.appendEntry`): persisted, never sent to the model. */
export const CustomEntrySchema = Type.Object({
	type: Type.Literal("custom"),
	...entryBase,
	customType: Type.String(),
	data: Type.Optional(Type.Unknown()),
});
export type CustomEntry = Static<typeof CustomEntrySchema>;

/** A hook message (`pi.sendMessage`): persisted, shown when `display`, part of the model context. */
export const CustomMessageEntrySchema = Type.Object({
	type: Type.Literal("custom_message"),
	...entryBase,
	customType: Type.String(),
	content: Type.Union([Type.String(), ToolContentSchema]),
	display: Type.Boolean(),
	details: Type.Optional(Type.Unknown()),
});
export type CustomMessageEntry = Static<typeof CustomMessageEntrySchema>;

/** Names an entry; a later label entry for the same target replaces it, one without `label` clears it. */
export const LabelEntrySchema = Type.Object({
	type: Type.Literal("label"),
	...entryBase,
	targetId: Type.String(),
	label: Type.Optional(Type.String()),
});
export type LabelEntry = Static<typeof LabelEntrySchema>;

/** Summary replacing the conversation before `firstKeptEntryId`. */
export const CompactionEntrySchema = Type.Object({
	type: Type.Literal("compaction"),
	...entryBase,
	summary: Type.String(),
	firstKeptEntryId: Type.String(),
	tokensBefore: Type.Optional(Type.Number()),
	details: Type.Optional(Type.Unknown()),
});
export type CompactionEntry = Static<typeof CompactionEntrySchema>;

/** Summary of a branch that was left, starting at `fromId`. */
export const BranchSummaryEntrySchema = Type.Object({
	type: Type.Literal("branch_summary"),
	...entryBase,
	fromId: Type.String(),
	summary: Type.String(),
	details: Type.Optional(Type.Unknown()),
});
export type BranchSummaryEntry = Static<typeof BranchSummaryEntrySchema>;

/** Any line after the header. */
export type SessionEntry = SessionMessageEntry | CustomEntry | CustomMessageEntry | LabelEntry | CompactionEntry | BranchSummaryEntry;

/** The schema of each entry kind, by `type`; used to validate lines on load and entries before writing. */
export const SessionEntrySchemas: Record<SessionEntry["type"], TSchema> = {
	message: SessionMessageEntrySchema,
	custom: CustomEntrySchema,
	custom_message: CustomMessageEntrySchema,
	label: LabelEntrySchema,
	compaction: CompactionEntrySchema,
	branch_summary: BranchSummaryEntrySchema,
};

/** One node of {@link ReadonlySessionManager.getTree}: an entry and the entries whose parent it is. */
export interface SessionTreeNode {
	entry: SessionEntry;
	/** In file order. */
	children: SessionTreeNode[];
}

/**
 * The session as hooks see it (`ctx.sessionManager`): read-only. Returned entries are frozen;
 * hooks write through `pi.sendMessage` / `pi.appendEntry`.
 */
export interface ReadonlySessionManager {
	/** Working directory recorded in the session header. */
	getCwd(): string;
	/** Directory holding the session file (for an in-memory session: the default directory, never written). */
	getSessionDir(): string;
	/** The session id from the header. */
	getSessionId(): string;
	/** Absolute path of the JSONL file; `undefined` for an in-memory session. */
	getSessionFile(): string | undefined;
	/** The header (first line of the file). */
	getHeader(): SessionHeader;
	/** Every entry, in file order, header excluded. */
	getEntries(): SessionEntry[];
	/** The entry with this id, if any. */
	getEntry(id: string): SessionEntry | undefined;
	/** Id of the entry the next append will follow; `null` while the session is empty. */
	getLeafId(): string | null;
	/** The entry at {@link getLeafId}, if any. */
	getLeafEntry(): SessionEntry | undefined;
	/** Path from the root to `fromId` (default: the leaf), following `parentId`; `[]` for an unknown id. */
	getBranch(fromId?: string): SessionEntry[];
	/** Current label of an entry, if one was set and not cleared. */
	getLabel(id: string): string | undefined;
	/** Entries as a forest: roots are entries without a (known) parent, children in file order. */
	getTree(): SessionTreeNode[];
}
