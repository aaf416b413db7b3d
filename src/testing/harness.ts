import { XcshError } from "../errors.ts";
import { isAbsolute } from "pathe";
import { loadHookFromFactory, loadHooks } from "../hooks/loader.ts";
import { isModulePath } from "../hooks/module-files.ts";
import { resolvePath } from "../paths.ts";
import { gatedSources } from "./_gate.ts";
import { HookRunner } from "../hooks/runner.ts";
import { applyToolResult, askPerson, gateToolCall, HookToolWrapper } from "../hooks/tool-wrapper.ts";
import type {
	HookAgent,
	AgentTool,
	AgentToolResult,
	BeforeAgentStartEventResult,
	HookError,
	HookEvent,
	HookFactory,
	HookMessage,
	HookResultMap,
	ImageContent,
	LoadedHook,
	Model,
	SendMessageOptions,
	ToolContent,
} from "../hooks/types.ts";
import type { AgentMessage } from "../messages.ts";
import { SessionManager } from "../session/session-manager.ts";
import { renderStatusLine } from "../ui/status-line.ts";
import { createScriptedUIContext, type RecordedNotification, type RecordedPrompt, type ScriptedUIAnswers } from "./scripted-ui.ts";

/** Options of {@link createHookHarness}. */
export interface HookHarnessOptions {
	/** Working directory hooks see (`ctx.cwd`, `pi.exec`); relative hook paths resolve against it. Default: `process.cwd()`. */
	cwd?: string;
	/** Scripted answers to UI prompts; unanswered prompts get the no-op answer. */
	ui?: ScriptedUIAnswers;
	/** `ctx.hasUI`; default `true` when `ui` is given, else `false`. */
	hasUI?: boolean;
	/** `ctx.model`. */
	model?: Model;
	/** `ctx.agent`: the agent (and subagent) a bridge would name; default `undefined`, as outside agents. */
	agent?: HookAgent;
}

/** Outcome of {@link HookHarness.toolCall}. */
export interface ToolCallOutcome {
	blocked: boolean;
	/**
	 * A hook asked (`{ask: true}`): the question went to the harness's scripted UI as a host's
	 * `ctx.ui.confirm` would put it; allowed only on a yes, blocked when declined or with no UI.
	 */
	asked?: true;
	/** Why it was blocked (the hook's reason, or the message of the error a handler threw), or what a hook asked. */
	reason?: string;
	/** The error a handler threw; such a call is blocked (fail closed), as the tool wrapper does. */
	error?: Error;
	/** The input the tool would run with when a hook replaced it (`{input}` results, chained). */
	input?: Record<string, unknown>;
}

/** Outcome of {@link HookHarness.toolResult}: the result the agent would see after `tool_result` hooks. */
export interface ToolResultOutcome {
	content: ToolContent;
	details: unknown;
	/** The text blocks of `content`, joined with newlines. */
	text: string;
}

/** Options of {@link HookHarness.toolResult}. */
export interface ToolResultOptions {
	details?: unknown;
	isError?: boolean;
}

/** A `pi.sendMessage` call. */
export interface RecordedMessage {
	message: HookMessage;
	options?: SendMessageOptions;
}

/** A `pi.appendEntry` call. */
export interface RecordedEntry {
	customType: string;
	data?: unknown;
}

/** A loaded hook wired to a real {@link HookRunner}, with recording host handlers and a scripted UI. */
export interface HookHarness {
	/** Emits `tool_call` for `toolName` with `input`. */
	toolCall(toolName: string, input?: Record<string, unknown>): Promise<ToolCallOutcome>;
	/** Emits `tool_result`; `content` may be plain text. */
	toolResult(
		toolName: string,
		input: Record<string, unknown>,
		content: string | ToolContent,
		options?: ToolResultOptions,
	): Promise<ToolResultOutcome>;
	/** Runs `tool` through a real {@link HookToolWrapper}; a blocked call rejects with the reason. */
	runTool<TParams extends Record<string, unknown>, TDetails>(
		tool: AgentTool<TParams, TDetails>,
		input: TParams,
	): Promise<AgentToolResult<TDetails>>;
	/** Emits any event; resolves what {@link HookRunner.emit} resolves. */
	emit<E extends HookEvent>(event: E): Promise<HookResultMap[E["type"]] | undefined>;
	/** Emits `context`; resolves the messages after every handler. */
	context(messages: AgentMessage[]): Promise<AgentMessage[]>;
	/** Emits `before_agent_start`. */
	beforeAgentStart(prompt: string, images?: ImageContent[]): Promise<BeforeAgentStartEventResult | undefined>;
	/** Runs the slash command `name` with a command context; an unknown name rejects, listing the registered ones. */
	command(name: string, args?: string): Promise<void>;
	/** `pi.sendMessage` calls. */
	readonly messages: RecordedMessage[];
	/** `pi.appendEntry` calls. */
	readonly entries: RecordedEntry[];
	/** `ctx.ui.notify` calls. */
	readonly notifications: RecordedNotification[];
	/** Current `ctx.ui.setStatus` values by key. */
	readonly statuses: Map<string, string>;
	/** The status line as the host would render it in `width` columns (default 80). */
	statusLine(width?: number): string;
	/** Handler errors reported to `onError`. */
	readonly errors: HookError[];
	/** Every UI question asked, with its answer. */
	readonly prompts: RecordedPrompt[];
	/** Current text of the agent's input editor (`ctx.ui.setEditorText`). */
	readonly editorText: string;
	/** The in-memory session `ctx.sessionManager` reads; messages and entries are appended to it too. */
	readonly session: SessionManager;
	readonly runner: HookRunner;
	readonly hook: LoadedHook;
}

function factoryPath(factory: HookFactory): string {
	return factory.name ? `<factory ${factory.name}>` : "<factory>";
}

async function load(hook: string | HookFactory, cwd: string): Promise<LoadedHook> {
	if (typeof hook === "function") return loadHookFromFactory(hook, factoryPath(hook), cwd);
	// Under `xcsh-hooks test`, a project shell hook runs from its approved bytes or not at all.
	const resolved = isAbsolute(hook) ? hook : resolvePath(hook, cwd);
	const sources = gatedSources(resolved, isModulePath(resolved));
	const { hooks, errors } = await loadHooks([hook], cwd, sources ? { sources } : {});
	if (errors[0]) throw new XcshError("HOOK_LOAD", `${errors[0].path}: ${errors[0].error}`);
	return hooks[0] as LoadedHook;
}

const asContent = (content: string | ToolContent): ToolContent =>
	typeof content === "string" ? [{ type: "text", text: content }] : content;

const textOf = (content: ToolContent): string => content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");

/**
 * Loads one hook — a file path (via `loadHooks`; a load error rejects with the loader's message) or
 * a factory — and wires it to a real {@link HookRunner} whose host handlers record what the hook does.
 */
export async function createHookHarness(hook: string | HookFactory, options: HookHarnessOptions = {}): Promise<HookHarness> {
	const cwd = options.cwd ?? process.cwd();
	const loaded = await load(hook, cwd);
	const session = SessionManager.inMemory(cwd);
	const runner = new HookRunner([loaded], cwd, session);
	const { ui, recording } = createScriptedUIContext(options.ui);
	const messages: RecordedMessage[] = [];
	const entries: RecordedEntry[] = [];
	const errors: HookError[] = [];
	let callCount = 0;

	runner.initialize({
		getModel: () => options.model,
		getAgent: () => options.agent,
		sendMessageHandler: (message, sendOptions) => {
			messages.push(sendOptions ? { message, options: sendOptions } : { message });
			session.appendCustomMessage(message);
		},
		appendEntryHandler: (customType, data) => {
			entries.push({ customType, data });
			session.appendCustomEntry(customType, data);
		},
		uiContext: ui,
		hasUI: options.hasUI ?? options.ui !== undefined,
	});
	runner.onError((error) => errors.push(error));

	return {
		async toolCall(toolName, input = {}) {
			const toolCallId = `call_${++callCount}`;
			const gate = await gateToolCall(runner, { type: "tool_call", toolName, toolCallId, input });
			if (gate.block && gate.ask) {
				const answer = await askPerson(runner, gate.reason, toolName, gate.input ?? input);
				const asked: ToolCallOutcome =
					answer === true ? { blocked: false, asked: true, reason: gate.reason } : { blocked: true, asked: true, reason: answer };
				return gate.input === undefined || answer !== true ? asked : { ...asked, input: gate.input };
			}
			if (!gate.block) return gate.input === undefined ? { blocked: false } : { blocked: false, input: gate.input };
			return gate.error ? { blocked: true, reason: gate.reason, error: gate.error } : { blocked: true, reason: gate.reason };
		},
		async toolResult(toolName, input, content, resultOptions = {}) {
			const original = asContent(content);
			const override = await runner.emit({
				type: "tool_result",
				toolName,
				toolCallId: `call_${++callCount}`,
				input,
				content: original,
				details: resultOptions.details,
				isError: resultOptions.isError ?? false,
			});
			const { content: finalContent, details } = applyToolResult({ content: original, details: resultOptions.details }, override);
			return { content: finalContent, details, text: textOf(finalContent) };
		},
		runTool: (tool, input) => new HookToolWrapper(tool, runner).execute(`call_${++callCount}`, input),
		emit: (event) => runner.emit(event),
		context: (list) => runner.emitContext(list),
		beforeAgentStart: (prompt, images) => runner.emitBeforeAgentStart(prompt, images),
		async command(name, args = "") {
			const command = runner.getCommand(name);
			if (!command) {
				const names = runner.getRegisteredCommands().map((c) => c.name);
				throw new XcshError("UNKNOWN_NAME", `Unknown command "${name}"; registered: ${names.length ? names.join(", ") : "none"}`);
			}
			await command.handler(args, runner.createCommandContext());
		},
		messages,
		entries,
		notifications: recording.notifications,
		statuses: recording.statuses,
		statusLine: (width = 80) => renderStatusLine(recording.statuses, width),
		errors,
		prompts: recording.prompts,
		get editorText() {
			return recording.editorText;
		},
		session,
		runner,
		hook: loaded,
	};
}
