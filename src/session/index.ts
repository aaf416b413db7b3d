export type { SessionErrorCode } from "./errors.ts";
export {
	type CreateSessionOptions,
	defaultSessionDir,
	type OpenSessionOptions,
	SessionManager,
} from "./session-manager.ts";
export {
	type BranchSummaryEntry,
	BranchSummaryEntrySchema,
	type CompactionEntry,
	CompactionEntrySchema,
	type CustomEntry,
	CustomEntrySchema,
	type CustomMessageEntry,
	CustomMessageEntrySchema,
	type LabelEntry,
	LabelEntrySchema,
	type ReadonlySessionManager,
	type SessionEntry,
	SessionEntrySchemas,
	type SessionHeader,
	SessionHeaderSchema,
	type SessionMessageEntry,
	SessionMessageEntrySchema,
	type SessionTreeNode,
} from "./types.ts";
