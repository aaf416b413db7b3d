import type { AgentMessage, ImageContent } from "../messages.ts";
import { createLogger } from "../logger.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import { createNoOpUIContext } from "../ui/no-op.ts";
import type { HookUIContext } from "../ui/types.ts";
import { timerDelay } from "../timeouts.ts";
import { dispatchChain, dispatchFirst } from "./_dispatch-own.ts";
import { combineOf, dispatchEmit, dispatchToolCall, dispatchToolCallReported, type TimeoutOf, type ToolCallOutcome } from "./_dispatch.ts";
import type { HookEventType, HookResultMap } from "./schemas.ts";
import type {
	AppendEntryHandler,
	BeforeAgentStartEventResult,
	HookCommandContext,
	HookContext,
	HookAgent,
	HookError,
	HookEvent,
	HookMessageRenderer,
	LoadedHook,
	Model,
	ModelRegistry,
	NewSessionOptions,
	RegisteredCommand,
	SendMessageHandler,
	ToolCallEvent,
	ToolCallEventResult,
} from "./types.ts";

/** Options of {@link HookRunner} beyond the seed's constructor arguments. */
export interface HookRunnerOptions {
	/** Time one async handler may take, in ms, for every event (off by default). */
	handlerTimeoutMs?: number | undefined;
	/** Per-event timeouts in ms, overriding `handlerTimeoutMs`. */
	eventTimeouts?: Partial<Record<HookEventType, number>>;
}

type Outcome = { cancelled: boolean };

/** What the host wires in with {@link HookRunner.initialize}. */
export interface HookRunnerInitOptions {
	getModel: () => Model | undefined;
	/** The agent of the current call (`ctx.agent`); absent outside agents. */
	getAgent?: (() => HookAgent | undefined) | undefined;
	sendMessageHandler: SendMessageHandler;
	appendEntryHandler: AppendEntryHandler;
	newSessionHandler?: (options?: NewSessionOptions) => Promise<Outcome>;
	branchHandler?: (entryId: string) => Promise<Outcome>;
	navigateTreeHandler?: (targetId: string, options?: { summarize?: boolean }) => Promise<Outcome>;
	isIdle?: () => boolean;
	waitForIdle?: () => Promise<void>;
	abort?: () => void;
	hasQueuedMessages?: () => boolean;
	/** The UI offered to hooks; the no-op UI when absent. */
	uiContext?: HookUIContext;
	/** Whether `uiContext` is interactive. */
	hasUI?: boolean;
}

type ErrorListener = (error: HookError) => void;

const notCancelled = async (): Promise<Outcome> => ({ cancelled: false });
const logger = createLogger("xcsh-hooks");

/**
 * The default session: an in-memory store, loaded on first use so that hosts bringing their own
 * session (the CLI does) never load the session store and its schemas at start-up.
 */
function inMemorySession(cwd: string): ReadonlySessionManager {
	const { SessionManager } = require("../session/session-manager.ts") as typeof import("../session/session-manager.ts");
	return SessionManager.inMemory(cwd);
}

/**
 * Dispatches events to loaded hooks (docs/contract.md#the-runner). Order is deterministic: hooks in array order, then
 * handlers in registration order. Results that are not promises are used without an `await`.
 */
export class HookRunner {
	private readonly errorListeners = new Set<ErrorListener>();
	private readonly sessionManager: ReadonlySessionManager;
	private readonly modelRegistry: ModelRegistry;
	private ui: HookUIContext = createNoOpUIContext();
	private hasUI = false;
	private init: Partial<HookRunnerInitOptions> = {};
	/** The context every event handler gets; its fields only change in {@link initialize}. */
	private context: HookContext | undefined;
	/** Per-event handler timeout; absent when none is configured, so handlers are called directly. */
	private readonly timeoutOf: TimeoutOf | undefined;

	constructor(
		private readonly hooks: LoadedHook[],
		private readonly cwd: string,
		sessionManager?: ReadonlySessionManager,
		modelRegistry?: ModelRegistry,
		options: HookRunnerOptions = {},
	) {
		this.sessionManager = sessionManager ?? inMemorySession(cwd);
		this.modelRegistry = modelRegistry ?? {};
		const { handlerTimeoutMs, eventTimeouts } = options;
		// A timeout longer than a timer can hold (or Infinity) means none, never "fire at once".
		if (timerDelay(handlerTimeoutMs) || Object.values(eventTimeouts ?? {}).some((ms) => timerDelay(ms)))
			this.timeoutOf = (type) => timerDelay(eventTimeouts?.[type as HookEventType] ?? handlerTimeoutMs) ?? 0;
	}

	/** Wires the host in: every hook's `sendMessage`/`appendEntry`, session control, the UI. */
	initialize(options: HookRunnerInitOptions): void {
		this.init = options;
		this.ui = options.uiContext ?? createNoOpUIContext();
		this.hasUI = options.uiContext ? (options.hasUI ?? false) : false;
		this.context = undefined;
		for (const hook of this.hooks) {
			hook.setSendMessageHandler(options.sendMessageHandler);
			hook.setAppendEntryHandler(options.appendEntryHandler);
		}
	}

	/** Subscribes to handler errors; returns the unsubscribe function. */
	onError(listener: ErrorListener): () => void {
		this.errorListeners.add(listener);
		return () => this.errorListeners.delete(listener);
	}

	/** Reports an error to every listener (to stderr when nobody listens). */
	emitError(error: HookError): void {
		if (this.errorListeners.size === 0) logger.warn(`${error.hookPath} (${error.event}): ${error.error}`);
		for (const listener of this.errorListeners) {
			try {
				listener(error);
			} catch {
				// A failing listener must not break dispatch or the other listeners.
			}
		}
	}

	/** Whether any hook handles `type`. */
	hasHandlers(type: HookEventType): boolean {
		for (const hook of this.hooks) if ((hook.handlers.get(type)?.length ?? 0) > 0) return true;
		return false;
	}

	getHookPaths(): string[] {
		return this.hooks.map((hook) => hook.path);
	}

	getUIContext(): HookUIContext {
		return this.ui;
	}

	getHasUI(): boolean {
		return this.hasUI;
	}

	/** The first hook (in load order) that registered `name`. */
	getCommand(name: string): RegisteredCommand | undefined {
		for (const hook of this.hooks) {
			const command = hook.commands.get(name);
			if (command) return command;
		}
		return undefined;
	}

	/** Every command of every hook, duplicates included. */
	getRegisteredCommands(): RegisteredCommand[] {
		return this.hooks.flatMap((hook) => [...hook.commands.values()]);
	}

	/** The first renderer registered for `customType`. */
	getMessageRenderer(customType: string): HookMessageRenderer | undefined {
		for (const hook of this.hooks) {
			const renderer = hook.messageRenderers.get(customType);
			if (renderer) return renderer;
		}
		return undefined;
	}

	/** The context event handlers receive. */
	createContext(): HookContext {
		const init = this.init;
		return {
			ui: this.ui,
			hasUI: this.hasUI,
			cwd: this.cwd,
			sessionManager: this.sessionManager,
			modelRegistry: this.modelRegistry,
			get model() {
				return init.getModel?.();
			},
			get agent() {
				return init.getAgent?.();
			},
			isIdle: () => init.isIdle?.() ?? true,
			abort: () => init.abort?.(),
			hasQueuedMessages: () => init.hasQueuedMessages?.() ?? false,
		};
	}

	/** The context command handlers receive: {@link createContext} plus session control. */
	createCommandContext(): HookCommandContext {
		const init = this.init;
		return Object.assign(this.createContext(), {
			waitForIdle: () => init.waitForIdle?.() ?? Promise.resolve(),
			newSession: (options?: NewSessionOptions) => (init.newSessionHandler ?? notCancelled)(options),
			branch: (entryId: string) => (init.branchHandler ?? notCancelled)(entryId),
			navigateTree: (targetId: string, options?: { summarize?: boolean }) => (init.navigateTreeHandler ?? notCancelled)(targetId, options),
		});
	}

	/** The shared event context, created on first use after construction or {@link initialize}. */
	private eventContext(): HookContext {
		this.context ??= this.createContext();
		return this.context;
	}

	/**
	 * Emits an event; handler errors and invalid results go to `onError` and dispatch continues. Results
	 * combine by the event's rule in the event table (`events.ts`, listed in docs/events.md):
	 * `cancel` (`session_before_*`, `subagent_start`): the last truthy result is kept and one with the
	 * rule's field set (`cancel: true`, `block: true`) returns at once. `chain` (`tool_result`): each
	 * handler sees the content/details replaced before it; resolves all replacements merged. `last`
	 * (`session.compacting`): the last truthy result wins. `answer` (`permission_request`): the first
	 * `{decision: "deny"}` returns at once, else the last truthy result.
	 *
	 * The events that have their own method follow its rule for results (one rule on every path):
	 * `block` (`tool_call`) resolves what {@link emitToolCall} decides, except that a handler that throws
	 * or returns an invalid result is reported and resolves `{block: true, reason}` (fail closed: emit
	 * never rejects, and a bad guard never allows); the final `chain` (`context`) resolves `{messages}`
	 * as {@link emitContext} chains them (when any handler is registered); `first`
	 * (`before_agent_start`) what {@link emitBeforeAgentStart} keeps. `none` resolves `undefined`.
	 */
	emit<E extends HookEvent>(event: E): Promise<HookResultMap[E["type"]] | undefined> {
		const combine = combineOf(event.type);
		if (combine.rule === "block" || combine.rule === "first" || (combine.rule === "chain" && combine.resolves === "final"))
			return this.emitWithOwnRule(event, combine) as Promise<HookResultMap[E["type"]] | undefined>;
		return dispatchEmit(this, this.hooks, event, this.eventContext(), this.timeoutOf) as Promise<HookResultMap[E["type"]] | undefined>;
	}

	/** {@link emit} of the rules that have their own loop. */
	private async emitWithOwnRule(event: HookEvent, combine: ReturnType<typeof combineOf>): Promise<unknown> {
		const ctx = this.eventContext();
		if (combine.rule === "block") return dispatchToolCallReported(this, this.hooks, event, ctx, this.timeoutOf);
		if (combine.rule === "chain") {
			if (!this.hasHandlers(event.type)) return undefined;
			const copies: Record<string, unknown> = { ...event };
			for (const field of combine.fields) copies[field] = structuredClone((event as Record<string, unknown>)[field]);
			const final = await dispatchChain(this, this.hooks, copies as HookEvent, combine.fields, ctx, this.timeoutOf);
			return Object.fromEntries(combine.fields.map((field) => [field, final[field]]));
		}
		if (combine.rule === "first") return dispatchFirst(this, this.hooks, event, combine.field, ctx, this.timeoutOf);
		return undefined;
	}

	/**
	 * Emits `tool_call`. Errors are not caught: they reach the caller (the wrapper then blocks), and so
	 * does a result that fails its schema. The first `{block: true}` returns at once; otherwise an
	 * `{ask: true}` outranks the allows (block > ask > allow), else the last truthy result wins; either
	 * carries the final `input` when a handler replaced it (chained).
	 */
	async emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
		const outcome = await this.decideToolCall(event);
		if ("error" in outcome) throw outcome.error;
		return outcome.result;
	}

	/** {@link emitToolCall} as data: the result or the error, and the path of the hook that decided. Never rejects. */
	decideToolCall(event: ToolCallEvent): Promise<ToolCallOutcome> {
		return dispatchToolCall(this.hooks, event, this.eventContext(), this.timeoutOf);
	}

	/**
	 * Emits `context` as a chain: each handler sees the previous handler's messages, and a result
	 * with `messages` replaces them. Handlers get a deep copy, never the caller's array. Errors go
	 * to `onError` and the chain continues. Resolves the final messages.
	 */
	async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		if (!this.hasHandlers("context")) return messages;
		return ((await this.emit({ type: "context", messages })) as { messages: AgentMessage[] }).messages;
	}

	/** Emits `before_agent_start`: every handler runs, the first result carrying `message` is kept. */
	emitBeforeAgentStart(prompt: string, images?: ImageContent[]): Promise<BeforeAgentStartEventResult | undefined> {
		const event = images ? { type: "before_agent_start" as const, prompt, images } : { type: "before_agent_start" as const, prompt };
		return this.emit(event);
	}
}
