import { XcshError } from "../../errors.ts";
import { relative, resolve } from "pathe";
import { contentText } from "../../agents/_shared/text.ts";
import type { AnyHookHandler, HookAPI, HookContext, HookEvent, HookFactory } from "../../hooks/types.ts";
import type { ToolContent } from "../../messages.ts";
import { approvalHash } from "./approval.ts";
import {
	type AgentAnswer,
	type AgentCall,
	type Dialect,
	fromAgentInput,
	type Json,
	runFailure,
	type RunInfo,
	toAgentCall,
} from "../../agents/_shared/dialect.ts";
import { matches } from "../../agents/_shared/matcher.ts";
import { runAgentCommand } from "./run-command.ts";
import type { AgentHookEntry } from "../../agents/_shared/entry.ts";
import { ownHooksOf } from "./own-hooks.ts";

/** The `customType` of the messages that carry an agent hook's additional context. */
export const AGENT_CONTEXT_TYPE = "agent-hook-context";

/** Options of {@link createAgentHookFactory}. */
export interface AgentHookFactoryOptions {
	/** The hook's path, `<settings file>#<key>`, for messages. */
	path: string;
	/** SHA-256 of the approved content (project entries): the entry runs only while it still has it. */
	approved?: string | undefined;
	/** Upper bound of the entry's timeout (the settings' `hookTimeoutMs`). */
	maxTimeoutMs?: number | undefined;
}

/** A session id for agents' payloads when the host's session cannot say: one per process. */
const processSession = crypto.randomUUID();

function sessionIdOf(ctx: HookContext): string {
	try {
		return ctx.sessionManager?.getSessionId?.() || processSession;
	} catch {
		return processSession;
	}
}

function runInfo(dialect: Dialect, event: HookEvent, ctx: HookContext): RunInfo {
	const info: RunInfo = { event, cwd: ctx.cwd, sessionId: sessionIdOf(ctx), model: ctx.model?.id };
	if (event.type === "tool_call" || event.type === "tool_result")
		info.call = toAgentCall(dialect.tools, event.toolName, event.input as Json, ctx.cwd, dialect.absolutePaths);
	if (event.type === "tool_result") info.text = contentText(event.content);
	return info;
}

/** The hook's input in our terms; a path that names the same file as before keeps its original spelling. */
function ourInput(call: AgentCall, agentInput: Json, original: Json, cwd: string): Json {
	const ours = fromAgentInput(call, agentInput, original);
	if (typeof ours.path === "string" && typeof original.path === "string" && resolve(cwd, ours.path) === resolve(cwd, original.path))
		ours.path = original.path;
	return ours;
}

/** Sends a message the model sees; a host without a message handler gets a notification instead. */
function send(pi: HookAPI, ctx: HookContext, text: string, details: Json, triggerTurn = false): void {
	try {
		pi.sendMessage(
			{ customType: AGENT_CONTEXT_TYPE, content: text, display: true, details },
			triggerTurn ? { triggerTurn: true } : undefined,
		);
	} catch {
		ctx.ui.notify(text, "info");
	}
}

/** Turns an answer into our event's result (docs/contract.md#events-and-results), with messages for context. */
async function apply(
	pi: HookAPI,
	ctx: HookContext,
	info: RunInfo,
	answer: AgentAnswer,
	dialect: Dialect,
	label: string,
	details: Json,
): Promise<unknown> {
	const { event, call } = info;
	if (answer.notice) ctx.ui.notify(`${label}: ${answer.notice}`, "info");
	if (answer.failure)
		throw new XcshError(
			"HOOK_FAILED",
			`${label} ${answer.failure}${event.type === "tool_call" ? "; the call is blocked (fail closed)" : ""}`,
		);
	if (answer.continueWith) send(pi, ctx, answer.continueWith, details, true);
	if (answer.context && event.type !== "before_agent_start") send(pi, ctx, answer.context, details);
	switch (event.type) {
		case "tool_call": {
			if (answer.deny !== undefined) return { block: true, reason: answer.deny };
			// An ask is ours to pass on: the host asks the person (or blocks), a bridge answers its agent's ask.
			const asked = answer.ask !== undefined ? { ask: true, reason: `${dialect.label} hook: ${answer.ask}` } : undefined;
			if (!answer.input || !call) return asked;
			const input = ourInput(call, answer.input, event.input as Json, ctx.cwd);
			if (Bun.deepEquals(input, event.input)) return asked;
			return asked ? { ...asked, input } : { input };
		}
		case "tool_result": {
			let content: ToolContent = event.content;
			if (answer.output !== undefined)
				content = [
					{ type: "text", text: typeof answer.output === "string" ? answer.output : dialect.outputText(call as AgentCall, answer.output) },
				];
			if (answer.appendText) content = [...content, { type: "text", text: answer.appendText }];
			return content === event.content ? undefined : { content };
		}
		case "before_agent_start":
			return answer.context ? { message: { customType: AGENT_CONTEXT_TYPE, content: answer.context, display: true, details } } : undefined;
		case "session_before_compact":
			return answer.cancel !== undefined ? { cancel: true } : undefined;
		default:
			return undefined;
	}
}

/**
 * The hook factory of one agent entry: it registers one handler on the entry's event of ours, which
 * runs the command the way its agent would (payload, environment, matcher, shell, timeout) and reads
 * the answer the way its agent would — except that a failure blocks a `tool_call` (fail closed) and is
 * reported through `onError` on the other events.
 */
export function createAgentHookFactory(entry: AgentHookEntry, options: AgentHookFactoryOptions): HookFactory {
	const own = ownHooksOf(entry.agent);
	const dialect = own.dialect();
	const timeoutMs = Math.min(entry.timeoutMs ?? own.defaultTimeoutMs, options.maxTimeoutMs ?? Number.POSITIVE_INFINITY);
	const details = { agent: entry.agent, event: entry.event, hook: options.path, command: entry.command };
	return (pi) => {
		const handler: AnyHookHandler = async (event: HookEvent, ctx: HookContext) => {
			const info = runInfo(dialect, event, ctx);
			if (!dialect.fires(entry, info)) return undefined;
			const subject = dialect.subject(entry, info);
			if (subject !== undefined && !matches(entry.matcher, subject, dialect.matchMode)) return undefined;
			const shown = relative(ctx.cwd, entry.file).startsWith("..") ? options.path : `${relative(ctx.cwd, entry.file)}#${entry.key}`;
			const label = `${dialect.label} hook ${shown} (${entry.command})`;
			if (options.approved !== undefined && approvalHash(entry) !== options.approved)
				throw new XcshError(
					"HOOK_CHANGED",
					`${label} changed since it was approved, so it fails closed; review it, then run: xcsh-hooks trust approve ${entry.file}`,
				);
			const result = await runAgentCommand(entry, {
				projectDir: ctx.cwd,
				payload: dialect.payload(entry, info),
				env: dialect.env(info),
				timeoutMs,
			});
			const failure = runFailure(result, timeoutMs);
			return apply(pi, ctx, info, failure ? { failure } : dialect.read(entry, result, info), dialect, label, details);
		};
		(pi.on as (event: string, handler: AnyHookHandler) => void)(entry.target, handler);
	};
}
