import type { AgentMessage, ImageContent } from "../messages.ts";
import { createLogger } from "../logger.ts";
import { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import { createNoOpUIContext } from "../ui/no-op.ts";
import type { HookUIContext } from "../ui/types.ts";
import type { HookEventType, HookResultMap } from "./schemas.ts";
import type {
	AnyHookHandler,
	AppendEntryHandler,
	BeforeAgentStartEventResult,
	HookCommandContext,
	HookContext,
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
	handlerTimeoutMs?: number;
	/** Per-event timeouts in ms, overriding `handlerTimeoutMs`. */
	eventTimeouts?: Partial<Record<HookEventType, number>>;
}

type Outcome = { cancelled: boolean };

/** What the host wires in with {@link HookRunner.initialize}. */
export interface HookRunnerInitOptions {
	getModel: () => Model | undefined;
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

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
	value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function";

const notCancelled = async (): Promise<Outcome> => ({ cancelled: false });
const logger = createLogger("xcsh-hooks");

/** Only these events keep handler results in {@link HookRunner.emit}. */
function keepsResult(type: string): boolean {
	return type.startsWith("session_before_") || type === "tool_result" || type === "session.compacting";
}

/**
 * Dispatches events to loaded hooks (SPEC §5). Order is deterministic: hooks in array order, then
 * handlers in registration order. Results that are not promises are used without an `await`.
 */
export class HookRunner {
	private readonly errorListeners = new Set<ErrorListener>();
	private readonly sessionManager: ReadonlySessionManager;
	private readonly modelRegistry: ModelRegistry;
	private ui: HookUIContext = createNoOpUIContext();
	private hasUI = false;
	private init: Partial<HookRunnerInitOptions> = {};

	constructor(
		private readonly hooks: LoadedHook[],
		private readonly cwd: string,
		sessionManager?: ReadonlySessionManager,
		modelRegistry?: ModelRegistry,
		private readonly options: HookRunnerOptions = {},
	) {
		this.sessionManager = sessionManager ?? SessionManager.inMemory(cwd);
		this.modelRegistry = modelRegistry ?? {};
	}

	/** Wires the host in: every hook's `sendMessage`/`appendEntry`, session control, the UI. */
	initialize(options: HookRunnerInitOptions): void {
		this.init = options;
		this.ui = options.uiContext ?? createNoOpUIContext();
		this.hasUI = options.uiContext ? (options.hasUI ?? false) : false;
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
		return this.hooks.some((hook) => (hook.handlers.get(type)?.length ?? 0) > 0);
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
			navigateTree: (targetId: string, options?: { summarize?: boolean }) =>
				(init.navigateTreeHandler ?? notCancelled)(targetId, options),
		});
	}

	/**
	 * Emits an event; handler errors go to `onError` and dispatch continues. `session_before_*`:
	 * the last truthy result is kept and `cancel: true` returns at once. `tool_result` and
	 * `session.compacting`: the last truthy result wins. Every other event resolves `undefined`.
	 */
	async emit<E extends HookEvent>(event: E): Promise<HookResultMap[E["type"]] | undefined> {
		const type = event.type;
		const keep = keepsResult(type);
		const cancellable = keep && type.startsWith("session_before_");
		let ctx: HookContext | undefined;
		let last: unknown;
		for (const hook of this.hooks) {
			const handlers = hook.handlers.get(type);
			if (!handlers) continue;
			for (const handler of handlers) {
				try {
					let result = this.call(handler, event, (ctx ??= this.createContext()));
					if (isThenable(result)) result = await result;
					if (!keep || !result) continue;
					last = result;
					if (cancellable && (result as { cancel?: boolean }).cancel) return result as HookResultMap[E["type"]];
				} catch (error) {
					this.reportError(hook, type, error);
				}
			}
		}
		return last as HookResultMap[E["type"]] | undefined;
	}

	/**
	 * Emits `tool_call`. Errors are not caught: they reach the caller (the wrapper then blocks).
	 * The last truthy result wins; the first `{block: true}` returns at once.
	 */
	async emitToolCall(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
		let ctx: HookContext | undefined;
		let last: ToolCallEventResult | undefined;
		for (const hook of this.hooks) {
			const handlers = hook.handlers.get("tool_call");
			if (!handlers) continue;
			for (const handler of handlers) {
				let result = this.call(handler, event, (ctx ??= this.createContext()));
				if (isThenable(result)) result = await result;
				if (!result) continue;
				last = result as ToolCallEventResult;
				if (last.block) return last;
			}
		}
		return last;
	}

	/**
	 * Emits `context` as a chain: each handler sees the previous handler's messages, and a result
	 * with `messages` replaces them. Handlers get a deep copy, never the caller's array. Errors go
	 * to `onError` and the chain continues. Resolves the final messages.
	 */
	async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
		if (!this.hasHandlers("context")) return messages;
		let current = structuredClone(messages);
		const ctx = this.createContext();
		for (const hook of this.hooks) {
			for (const handler of hook.handlers.get("context") ?? []) {
				try {
					let result = this.call(handler, { type: "context", messages: current }, ctx);
					if (isThenable(result)) result = await result;
					const replaced = (result as { messages?: AgentMessage[] } | undefined)?.messages;
					if (replaced) current = replaced;
				} catch (error) {
					this.reportError(hook, "context", error);
				}
			}
		}
		return current;
	}

	/** Emits `before_agent_start`: every handler runs, the first result carrying `message` is kept. */
	async emitBeforeAgentStart(prompt: string, images?: ImageContent[]): Promise<BeforeAgentStartEventResult | undefined> {
		const event = images ? { type: "before_agent_start", prompt, images } : { type: "before_agent_start", prompt };
		let ctx: HookContext | undefined;
		let kept: BeforeAgentStartEventResult | undefined;
		for (const hook of this.hooks) {
			for (const handler of hook.handlers.get("before_agent_start") ?? []) {
				try {
					let result = this.call(handler, event, (ctx ??= this.createContext()));
					if (isThenable(result)) result = await result;
					if (!kept && (result as BeforeAgentStartEventResult | undefined)?.message)
						kept = result as BeforeAgentStartEventResult;
				} catch (error) {
					this.reportError(hook, "before_agent_start", error);
				}
			}
		}
		return kept;
	}

	private reportError(hook: LoadedHook, event: string, error: unknown): void {
		this.emitError({
			hookPath: hook.path,
			event,
			error: error instanceof Error ? error.message : String(error),
			stack: error instanceof Error ? error.stack : undefined,
		});
	}

	/** Calls a handler, racing an async result against the configured timeout (a timeout throws). */
	private call(handler: AnyHookHandler, event: { readonly type: string; readonly [key: string]: unknown }, ctx: HookContext): unknown {
		const result = handler(event, ctx);
		const ms = this.options.eventTimeouts?.[event.type as HookEventType] ?? this.options.handlerTimeoutMs;
		if (!ms || !isThenable(result)) return result;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`${event.type} handler timed out after ${ms} ms`)), ms);
		});
		return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
	}
}
