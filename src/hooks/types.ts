import type { Static, TSchema } from "@sinclair/typebox";
import type { ExecOptions, ExecResult } from "../exec/exec-command.ts";
import type { AgentMessage, CustomMessage, HookMessage, ImageContent, ToolContent } from "../messages.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import type { SessionManager } from "../session/session-manager.ts";
import type { Theme } from "../ui/theme.ts";
import type { HookUIContext } from "../ui/types.ts";
import type { Logger } from "../logger.ts";
import type { PackageRoot } from "./package-root.ts";
import type { HookEventMap, HookEventType, HookResultMap, SubagentSchema } from "./schemas.ts";

export type { ExecOptions, ExecResult } from "../exec/exec-command.ts";
export type { HookUIContext } from "../ui/types.ts";
export type { ReadonlySessionManager } from "../session/types.ts";
export type { HookEventMap, HookEventType, HookResultMap } from "./schemas.ts";

// ---------------------------------------------------------------------------------------------
// Events and results (derived from the TypeBox schemas)
// ---------------------------------------------------------------------------------------------

export type SessionStartEvent = HookEventMap["session_start"];
export type SessionBeforeSwitchEvent = HookEventMap["session_before_switch"];
export type SessionSwitchEvent = HookEventMap["session_switch"];
export type SessionBeforeBranchEvent = HookEventMap["session_before_branch"];
export type SessionBranchEvent = HookEventMap["session_branch"];
export type SessionBeforeCompactEvent = HookEventMap["session_before_compact"];
export type SessionCompactingEvent = HookEventMap["session.compacting"];
export type SessionCompactEvent = HookEventMap["session_compact"];
export type SessionBeforeTreeEvent = HookEventMap["session_before_tree"];
export type SessionTreeEvent = HookEventMap["session_tree"];
export type SessionShutdownEvent = HookEventMap["session_shutdown"];
export type ContextEvent = HookEventMap["context"];
export type BeforeAgentStartEvent = HookEventMap["before_agent_start"];
export type AgentStartEvent = HookEventMap["agent_start"];
export type AgentEndEvent = HookEventMap["agent_end"];
export type TurnStartEvent = HookEventMap["turn_start"];
export type TurnEndEvent = HookEventMap["turn_end"];
export type AutoCompactionStartEvent = HookEventMap["auto_compaction_start"];
export type AutoCompactionEndEvent = HookEventMap["auto_compaction_end"];
export type AutoRetryStartEvent = HookEventMap["auto_retry_start"];
export type AutoRetryEndEvent = HookEventMap["auto_retry_end"];
export type TtsrTriggeredEvent = HookEventMap["ttsr_triggered"];
export type TodoReminderEvent = HookEventMap["todo_reminder"];
export type ToolCallEvent = HookEventMap["tool_call"];
export type ToolResultEvent = HookEventMap["tool_result"];
export type SubagentStartEvent = HookEventMap["subagent_start"];
export type SubagentEndEvent = HookEventMap["subagent_end"];
/** Any hook event. */
export type HookEvent = HookEventMap[HookEventType];

export type SessionBeforeSwitchResult = HookResultMap["session_before_switch"];
export type SessionBeforeBranchResult = HookResultMap["session_before_branch"];
export type SessionBeforeCompactResult = HookResultMap["session_before_compact"];
export type SessionCompactingResult = HookResultMap["session.compacting"];
export type SessionBeforeTreeResult = HookResultMap["session_before_tree"];
export type ContextEventResult = HookResultMap["context"];
export type BeforeAgentStartEventResult = HookResultMap["before_agent_start"];
export type ToolCallEventResult = HookResultMap["tool_call"];
export type ToolResultEventResult = HookResultMap["tool_result"];
export type SubagentStartEventResult = HookResultMap["subagent_start"];

// ---------------------------------------------------------------------------------------------
// Host-side shapes hooks can see
// ---------------------------------------------------------------------------------------------

/** A model the host may have selected. */
export interface Model {
	id: string;
	provider: string;
	name?: string;
	contextWindow?: number;
	[key: string]: unknown;
}

/** The host's model registry (API keys, available models); every member is optional. */
export interface ModelRegistry {
	getAll?(): Model[];
	find?(provider: string, id: string): Model | undefined;
	getApiKey?(model: Model): Promise<string | undefined>;
}

/** What a tool returns. */
export interface AgentToolResult<TDetails = unknown> {
	content: ToolContent;
	details?: TDetails;
}

/** A tool the agent can call; `parameters` is a TypeBox schema. */
export interface AgentTool<TParams = Record<string, unknown>, TDetails = unknown> {
	name: string;
	label: string;
	description: string;
	parameters: TSchema;
	execute(
		toolCallId: string,
		params: TParams,
		signal?: AbortSignal,
		onUpdate?: (partial: AgentToolResult<TDetails>) => void,
		context?: unknown,
	): Promise<AgentToolResult<TDetails>>;
}

/**
 * A subagent of the agent: who made the call when it was not the agent's main loop. `id` is the
 * agent's id of it (Claude and Codex `agent_id`), `type` its kind as the agent names it (`Explore`,
 * `worker`), `parentId` the agent that started it, when the agent says (Copilot `parent_agent_id`).
 */
export type HookSubagent = Static<typeof SubagentSchema>;

/** Which agent dispatched an event and, inside a subagent, which subagent (`ctx.agent`). */
export interface HookAgent {
	/** The bridge's agent name: `claude`, `codex`, `gemini`, `cursor`, `copilot`. */
	name: string;
	/** Set when a subagent made the call; absent for the main agent and where the agent does not say (Gemini). */
	subagent?: HookSubagent | undefined;
}

/** Context passed to every event handler. */
export interface HookContext {
	/**
	 * The agent whose hook call this is, and the subagent when one made it; `undefined` outside agents
	 * (`emit`, `run`, the library's own runner).
	 */
	readonly agent?: HookAgent | undefined;
	/** UI methods; the no-op UI when the host has none. */
	ui: HookUIContext;
	/** Whether an interactive UI is available. */
	hasUI: boolean;
	/** The host's working directory. */
	cwd: string;
	/** Read-only session view; write through `pi.sendMessage` / `pi.appendEntry`. */
	sessionManager: ReadonlySessionManager;
	/** The host's model registry. */
	modelRegistry: ModelRegistry;
	/** The current model, when one is selected. */
	model: Model | undefined;
	/** Whether the agent is idle (not streaming). */
	isIdle(): boolean;
	/** Abort the current agent operation (fire and forget). */
	abort(): void;
	/** Whether messages are queued for the agent. */
	hasQueuedMessages(): boolean;
}

/** Options of {@link HookCommandContext.newSession}. */
export interface NewSessionOptions {
	/** Session file of the parent, for lineage. */
	parentSession?: string;
	/** Initialises the new session (e.g. appends a first message). */
	setup?: (sessionManager: SessionManager) => Promise<void>;
}

/** Context of slash-command handlers: a {@link HookContext} plus session control. */
export interface HookCommandContext extends HookContext {
	/** Resolves once the agent is idle. */
	waitForIdle(): Promise<void>;
	/** Starts a new session; `cancelled` when a `session_before_switch` hook cancelled it. */
	newSession(options?: NewSessionOptions): Promise<{ cancelled: boolean }>;
	/** Branches from an entry into a new session file. */
	branch(entryId: string): Promise<{ cancelled: boolean }>;
	/** Moves to another point of the session tree. */
	navigateTree(targetId: string, options?: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
}

// ---------------------------------------------------------------------------------------------
// The hook API
// ---------------------------------------------------------------------------------------------

/** An event handler: may return the event's result, nothing, or a promise of either. */
// biome-ignore lint/suspicious/noConfusingVoidType: void lets handlers use bare `return`.
export type HookHandler<E, R = undefined> = (event: E, ctx: HookContext) => R | void | Promise<R | void>;

/** The handler type for event `K`. */
export type HookHandlerFor<K extends HookEventType> = HookHandler<HookEventMap[K], HookResultMap[K]>;

/** Options passed to a message renderer. */
export interface HookMessageRenderOptions {
	/** Whether the message is shown expanded. */
	expanded: boolean;
}

/** Renders a hook's custom message as text lines; `undefined` falls back to the default rendering. */
export type HookMessageRenderer<T = unknown> = (
	message: CustomMessage<T>,
	options: HookMessageRenderOptions,
	theme: Theme,
) => string | string[] | undefined;

/** A slash command registered by a hook. */
export interface RegisteredCommand {
	name: string;
	description?: string | undefined;
	handler: (args: string, ctx: HookCommandContext) => Promise<void>;
}

/** Options of `pi.sendMessage`. */
export interface SendMessageOptions {
	/** Start a new turn when the agent is idle. */
	triggerTurn?: boolean;
	/** Deliver while streaming as a steering message or after the turn. */
	deliverAs?: "steer" | "followUp";
}

export type SendMessageHandler = (message: HookMessage, options?: SendMessageOptions) => void;
export type AppendEntryHandler = (customType: string, data?: unknown) => void;

/** The object a hook's factory receives. */
export interface HookAPI {
	/**
	 * Subscribes to an event of docs/events.md; the handler's event and result are typed by the name. A name
	 * that is not an event throws at registration (with the nearest known name), a load error.
	 */
	on<K extends HookEventType>(event: K, handler: HookHandlerFor<K>): void;

	/** Sends a persistent custom message (seen by the model). Throws before the host initialises the runner. */
	sendMessage<T = unknown>(message: HookMessage<T>, options?: SendMessageOptions): void;
	/** Appends hook state to the session (not seen by the model). Throws before initialisation. */
	appendEntry<T = unknown>(customType: string, data?: T): void;
	/** Registers a slash command. */
	registerCommand(name: string, options: { description?: string; handler: RegisteredCommand["handler"] }): void;
	/** Registers a renderer for custom messages of `customType`. */
	registerMessageRenderer<T = unknown>(customType: string, renderer: HookMessageRenderer<T>): void;
	/** Runs a command (argv, no shell) in the loader's cwd unless `options.cwd` says otherwise. */
	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
	/** Logger writing to stderr (level from `XCSH_HOOKS_LOG`). */
	logger: Logger;
	/** The `@sinclair/typebox` module. */
	typebox: typeof import("@sinclair/typebox");
	/** The `xcsh-hooks` package root module. */
	pi: PackageRoot;
}

/** What a hook module default-exports. */
export type HookFactory = (pi: HookAPI) => void | Promise<void>;

/** A handler failure reported to `onError` listeners. */
export interface HookError {
	hookPath: string;
	event: string;
	error: string;
	stack?: string | undefined;
}

/** Any handler as stored by the loader. */
// biome-ignore lint/suspicious/noExplicitAny: storage is untyped; the generic `on` types the entry points.
export type AnyHookHandler = (event: any, ctx: HookContext) => unknown;

/** Where a hook came from: discovery (with its provider), a settings file, or the caller. */
export interface HookSource {
	origin: "discovered" | "settings" | "configured";
	/** `project` hooks come from the checked-out repository and are subject to trust. */
	level: "user" | "project";
	/** Discovery provider id (`native`, `claude`, `codex`). */
	provider?: string;
}

/** A loaded hook: what its factory registered. */
export interface LoadedHook {
	/** The path exactly as given to the loader. */
	path: string;
	/** The absolute path that was imported. */
	resolvedPath: string;
	handlers: Map<string, AnyHookHandler[]>;
	messageRenderers: Map<string, HookMessageRenderer>;
	commands: Map<string, RegisteredCommand>;
	setSendMessageHandler(handler: SendMessageHandler): void;
	setAppendEntryHandler(handler: AppendEntryHandler): void;
	/** Set by `discoverAndLoadHooks`. */
	source?: HookSource | undefined;
	/**
	 * Other files the hook runs, for a server to reload on (an agent entry's scripts and the files its
	 * approval covers); computed when asked. Module and shell hooks leave it unset: the server derives theirs.
	 */
	watchFiles?: (() => string[]) | undefined;
}

/** A hook that could not be loaded. */
export interface HookLoadError {
	path: string;
	error: string;
}

/** What `loadHooks` returns: never throws for a bad hook. */
export interface LoadHooksResult {
	hooks: LoadedHook[];
	errors: HookLoadError[];
}

export type { AgentMessage, CustomMessage, HookMessage, ImageContent, ToolContent };
