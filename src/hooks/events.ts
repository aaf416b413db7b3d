import type { TObject } from "@sinclair/typebox";
import { Type } from "@sinclair/typebox";
import { AgentMessageSchema, ImageContentSchema, ToolContentSchema, ToolResultMessageSchema } from "../messages.ts";
import {
	Cancel,
	CompactionResultSchema,
	Entries,
	eventSchema as event,
	Int,
	NullableId,
	resultSchema as result,
	Signal,
	SubagentSchema,
	TodoItemSchema,
	ToolOrigin,
	TreePreparationSchema,
} from "./event-parts.ts";
import { addEventForTesting, answer, block, cancel, chain, type EventRule, first, last, none } from "./event-rules.ts";

/*
 * THE EVENT TABLE: one entry per hook event, and the only place an event is defined. An entry is its
 * payload schema, its result schema (absent: results are ignored), how results combine, what the result
 * becomes for an agent, whether it guards a call, and how a bridge builds it. The types hook authors
 * write against (`HookEventMap`, `HookResultMap`), the generated checks and rules (`bun run gen`), the
 * runner, dispatch, the bridges, `serve` and `docs/events.md` (`bun scripts/gen-docs-events.ts`) are all
 * read from here. docs/adding-an-event.md says what else adding an event touches.
 */

/** One event of the table. */
export interface EventEntry extends EventRule {
	/** One line for the reference (docs/events.md). */
	readonly summary: string;
	/** The event as handlers receive it (a `type` literal plus its fields). */
	readonly payload: TObject;
	/** What handlers may return; absent when results are ignored. */
	readonly result?: TObject;
}

const beforeSession = (type: string) => cancel("cancel", `${type} was cancelled by a hook`);

/** Every hook event, in the order of the spec. */
export const EVENTS = {
	session_start: {
		summary: "A session started (or the agent's session did).",
		payload: event("session_start", {}),
		combine: none,
		bridge: "bare",
		commandHooks: true,
	},
	session_before_switch: {
		summary: "Before switching to another session; `cancel: true` keeps the current one.",
		payload: event("session_before_switch", {
			reason: Type.Union([Type.Literal("new"), Type.Literal("resume"), Type.Literal("fork")]),
			targetSessionFile: Type.Optional(Type.String()),
		}),
		result: result({ cancel: Cancel }),
		combine: beforeSession("session_before_switch"),
	},
	session_switch: {
		summary: "After switching sessions.",
		payload: event("session_switch", {
			reason: Type.Union([Type.Literal("new"), Type.Literal("resume"), Type.Literal("fork")]),
			previousSessionFile: Type.Optional(Type.String()),
		}),
		combine: none,
	},
	session_before_branch: {
		summary: "Before branching from an entry; `cancel: true` stops it.",
		payload: event("session_before_branch", { entryId: Type.String() }),
		result: result({ cancel: Cancel, skipConversationRestore: Type.Optional(Type.Boolean()) }),
		combine: beforeSession("session_before_branch"),
	},
	session_branch: {
		summary: "After branching.",
		payload: event("session_branch", { previousSessionFile: Type.Optional(Type.String()) }),
		combine: none,
	},
	session_before_compact: {
		summary: "Before the session is compacted; `cancel: true` stops it, `compaction` supplies one.",
		payload: event("session_before_compact", {
			preparation: Type.Record(Type.String(), Type.Unknown()),
			branchEntries: Entries,
			customInstructions: Type.Optional(Type.String()),
			signal: Signal,
		}),
		result: result({ cancel: Cancel, compaction: Type.Optional(CompactionResultSchema) }),
		combine: beforeSession("session_before_compact"),
		outcome: "cancel",
		bridge: "compaction",
		commandHooks: true,
	},
	"session.compacting": {
		summary: "While compacting: context lines, a prompt, data to keep.",
		payload: event("session.compacting", {
			sessionId: Type.Optional(Type.String()),
			messages: Type.Optional(Type.Array(AgentMessageSchema)),
		}),
		result: result({
			context: Type.Optional(Type.Array(Type.String())),
			prompt: Type.Optional(Type.String()),
			preserveData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
		}),
		combine: last,
	},
	session_compact: {
		summary: "After compaction.",
		payload: event("session_compact", {
			compactionEntry: Type.Record(Type.String(), Type.Unknown()),
			fromExtension: Type.Boolean(),
		}),
		combine: none,
	},
	session_before_tree: {
		summary: "Before moving in the session tree; `cancel: true` stops it.",
		payload: event("session_before_tree", { preparation: TreePreparationSchema, signal: Signal }),
		result: result({
			cancel: Cancel,
			summary: Type.Optional(Type.Object({ summary: Type.String(), details: Type.Optional(Type.Unknown()) })),
		}),
		combine: beforeSession("session_before_tree"),
	},
	session_tree: {
		summary: "After moving in the session tree.",
		payload: event("session_tree", {
			newLeafId: NullableId,
			oldLeafId: NullableId,
			summaryEntry: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
			fromExtension: Type.Optional(Type.Boolean()),
		}),
		combine: none,
	},
	session_shutdown: {
		summary: "The session ends.",
		payload: event("session_shutdown", {}),
		combine: none,
		bridge: "bare",
		commandHooks: true,
	},
	context: {
		summary: "The messages about to be sent to the model; a handler may replace them for the next.",
		payload: event("context", { messages: Type.Array(AgentMessageSchema) }),
		result: result({ messages: Type.Optional(Type.Array(AgentMessageSchema)) }),
		combine: chain(["messages"], "final"),
		outcome: "messages",
		bridge: "messages",
	},
	before_agent_start: {
		summary: "The user's prompt, before the agent starts on it; a `message` adds to the model's context.",
		payload: event("before_agent_start", {
			prompt: Type.String(),
			images: Type.Optional(Type.Array(ImageContentSchema)),
		}),
		result: result({
			message: Type.Optional(
				Type.Object({
					customType: Type.String(),
					content: Type.Union([Type.String(), ToolContentSchema]),
					display: Type.Boolean(),
					details: Type.Optional(Type.Unknown()),
				}),
			),
		}),
		combine: first("message"),
		outcome: "context",
		bridge: "prompt",
		commandHooks: true,
	},
	agent_start: { summary: "The agent started a run.", payload: event("agent_start", {}), combine: none },
	agent_end: {
		summary: "The agent finished a run.",
		payload: event("agent_end", { messages: Type.Array(AgentMessageSchema) }),
		combine: none,
		bridge: "messages",
		commandHooks: true,
	},
	turn_start: { summary: "A turn starts.", payload: event("turn_start", { turnIndex: Int, timestamp: Type.Number() }), combine: none },
	turn_end: {
		summary: "A turn ended.",
		payload: event("turn_end", {
			turnIndex: Int,
			message: AgentMessageSchema,
			toolResults: Type.Array(ToolResultMessageSchema),
		}),
		combine: none,
	},
	auto_compaction_start: {
		summary: "Automatic compaction starts.",
		payload: event("auto_compaction_start", {
			reason: Type.Union([Type.Literal("threshold"), Type.Literal("overflow")]),
		}),
		combine: none,
	},
	auto_compaction_end: {
		summary: "Automatic compaction ended.",
		payload: event("auto_compaction_end", {
			result: Type.Optional(CompactionResultSchema),
			aborted: Type.Boolean(),
			willRetry: Type.Boolean(),
		}),
		combine: none,
	},
	auto_retry_start: {
		summary: "The agent retries after an error.",
		payload: event("auto_retry_start", {
			attempt: Int,
			maxAttempts: Int,
			delayMs: Type.Number({ minimum: 0 }),
			errorMessage: Type.String(),
		}),
		combine: none,
	},
	auto_retry_end: {
		summary: "A retry ended.",
		payload: event("auto_retry_end", {
			success: Type.Boolean(),
			attempt: Int,
			finalError: Type.Optional(Type.String()),
		}),
		combine: none,
	},
	ttsr_triggered: {
		summary: "Time-traveling stream rules matched.",
		payload: event("ttsr_triggered", {
			rules: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
		}),
		combine: none,
	},
	todo_reminder: {
		summary: "The agent is reminded of open todos.",
		payload: event("todo_reminder", { todos: Type.Array(TodoItemSchema), attempt: Int, maxAttempts: Int }),
		combine: none,
	},
	tool_call: {
		summary:
			"Before a tool runs: block it, ask the person (docs/ask.md), or replace its whole input. Guards the call: every failure denies it.",
		payload: event("tool_call", {
			toolName: Type.String({ minLength: 1 }),
			...ToolOrigin,
			toolCallId: Type.String(),
			input: Type.Record(Type.String(), Type.Unknown()),
		}),
		/**
		 * `input`: a whole replacement of the tool's input, seen by later handlers and run by the tool.
		 * `ask`: the person decides (block beats ask beats allow; docs/ask.md); `reason` is what they are shown.
		 */
		result: result({
			block: Type.Optional(Type.Boolean()),
			ask: Type.Optional(Type.Boolean()),
			reason: Type.Optional(Type.String()),
			input: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
		}),
		combine: block(["block", "ask"], "input"),
		outcome: "deny",
		guard: true,
		callId: true,
		bridge: "tool-call",
		commandHooks: true,
	},
	tool_result: {
		summary: "After a tool ran: replace its content or details (chained).",
		payload: event("tool_result", {
			toolName: Type.String({ minLength: 1 }),
			...ToolOrigin,
			toolCallId: Type.String(),
			input: Type.Record(Type.String(), Type.Unknown()),
			content: ToolContentSchema,
			details: Type.Unknown(),
			isError: Type.Boolean(),
		}),
		result: result({
			content: Type.Optional(ToolContentSchema),
			details: Type.Optional(Type.Unknown()),
			isError: Type.Optional(Type.Boolean()),
		}),
		combine: chain(["content", "details"], "replaced", ["isError"]),
		outcome: "replace",
		callId: true,
		bridge: "tool-result",
		commandHooks: true,
	},
	permission_request: {
		summary:
			"The agent is about to show its own approval prompt for a tool call: `allow` approves it, `deny` refuses it (docs/ask.md). Guards the call: every failure denies it.",
		/** `toolName` and `input` as for `tool_call`; `suggestions`: the agent's own (e.g. rules it offers to add). */
		payload: event("permission_request", {
			toolName: Type.String({ minLength: 1 }),
			...ToolOrigin,
			toolCallId: Type.Optional(Type.String()),
			input: Type.Record(Type.String(), Type.Unknown()),
			suggestions: Type.Optional(Type.Array(Type.Unknown())),
		}),
		/** No result lets the agent ask as usual. */
		result: result({
			decision: Type.Union([Type.Literal("allow"), Type.Literal("deny")]),
			reason: Type.Optional(Type.String()),
		}),
		combine: answer("decision", "deny", "denied by a hook"),
		outcome: "approve",
		guard: true,
		bridge: "permission",
	},
	subagent_start: {
		summary: "A subagent starts; `block: true` stops it where the agent honours it (Cursor), elsewhere it is reported.",
		payload: event("subagent_start", { subagent: SubagentSchema }),
		result: result({ block: Type.Optional(Type.Boolean()), reason: Type.Optional(Type.String()) }),
		combine: cancel("block", "starting the subagent was denied by a hook", true),
		outcome: "deny-start",
		bridge: "subagent",
	},
	subagent_end: {
		summary: "A subagent finished.",
		payload: event("subagent_end", {
			subagent: SubagentSchema,
			lastMessage: Type.Optional(Type.String()),
			transcriptPath: Type.Optional(Type.String()),
		}),
		combine: none,
		bridge: "subagent",
	},
} as const satisfies Record<string, EventEntry>;

/** The table's rules alone (what `_event-rules.generated.ts` holds), keyed by event type. */
export function rulesOf(table: Record<string, EventEntry>): Record<string, EventRule> {
	const rules: Record<string, EventRule> = {};
	for (const [type, { summary: _summary, payload: _payload, result: _result, ...rule }] of Object.entries(table)) rules[type] = rule;
	return rules;
}

/**
 * For tests only: adds `entry` under `type` as if it were in the table (its checks compiled with
 * TypeBox, its rule read by dispatch). Returns the function removing it again.
 */
export function addEntryForTesting(type: string, entry: EventEntry): () => void {
	const { TypeCompiler } = require("@sinclair/typebox/compiler") as typeof import("@sinclair/typebox/compiler");
	const payload = TypeCompiler.Compile(entry.payload);
	const result = entry.result && TypeCompiler.Compile(entry.result);
	const rule = rulesOf({ [type]: entry })[type] as EventRule;
	return addEventForTesting(type, {
		rule,
		check: (value) => payload.Check(value),
		checkResult: result && ((value) => result.Check(value)),
		schemas: { payload: entry.payload, result: entry.result },
	});
}
