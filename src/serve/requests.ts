import { isXcshError, XcshError, type XcshErrorCode } from "../errors.ts";
import { isRecord as isObject } from "../json.ts";
import type { HookEvent, ToolCallEvent } from "../hooks/types.ts";
import { validateEvent } from "../hooks/validate.ts";
import { eventRule } from "../hooks/event-rules.ts";
import { parseJsonText } from "../json.ts";
import type { AgentMessage, ImageContent } from "../messages.ts";

/** A request id: what the client sent, echoed in the response. */
export type RequestId = string | number;

/** One request line: `{id, method, params}`. */
export interface ServeRequest {
	id: RequestId;
	method: string;
	params: unknown;
}

/** Error codes of `{id, error: {code, message}}` responses. */
export type ServeErrorCode =
	| "parse_error"
	| "invalid_request"
	| "invalid_params"
	| "method_not_found"
	| "command_not_found"
	| "handler_error"
	| "reload_failed"
	| "shutting_down"
	| "internal_error";

/** An error answered as `{id, error: {code, message}}` (the server keeps running): an `XcshError` `SERVE_…`. */
export function serveError(code: ServeErrorCode, message: string): XcshError {
	return new XcshError(`SERVE_${code.toUpperCase()}` as XcshErrorCode, message);
}

/** The wire code a thrown error is answered with: its own for a `SERVE_…` error, else `internal_error`. */
export function serveWireCode(error: unknown): ServeErrorCode {
	return isXcshError(error) && error.code.startsWith("SERVE_") ? (error.code.slice(6).toLowerCase() as ServeErrorCode) : "internal_error";
}

/** The id of a request line that was refused before it was accepted (its method was bad), or `null`. */
export function idOfRefusedLine(line: string): RequestId | null {
	try {
		const value = parseJsonText(line, "line");
		return isObject(value) ? requestId(value) : null;
	} catch {
		return null;
	}
}

/** A response line: exactly one of `result` and `error`. */
export type ServeResponse = { id: RequestId; result: unknown } | { id: RequestId | null; error: { code: ServeErrorCode; message: string } };

const describeType = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

function requestId(value: unknown): RequestId | null {
	const id = isObject(value) ? value.id : undefined;
	return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** Parses one line into a request; throws `parse_error` or `invalid_request` naming the fault. */
export function parseRequest(line: string): ServeRequest {
	let value: unknown;
	try {
		value = parseJsonText(line, "line");
	} catch (error) {
		throw serveError("parse_error", (error as Error).message);
	}
	if (!isObject(value))
		throw serveError("invalid_request", `a request must be a JSON object {id, method, params}, got ${describeType(value)}`);
	const id = requestId(value);
	if (id === null)
		throw serveError(
			"invalid_request",
			`id must be a string or a number, got ${value.id === undefined ? "nothing" : JSON.stringify(value.id)}`,
		);
	if (typeof value.method !== "string")
		throw serveError(
			"invalid_request",
			`method must be a string, got ${value.method === undefined ? "nothing" : JSON.stringify(value.method)}`,
		);
	return value as unknown as ServeRequest;
}

function objectParams(params: unknown, shape: string): Record<string, unknown> {
	if (isObject(params)) return params;
	throw serveError(
		"invalid_params",
		`params must be a JSON object ${shape}, got ${params === undefined ? "nothing" : describeType(params)}`,
	);
}

/** Validates an event, renaming the schema's field paths (`tool_call.input`) to the request's (`params.input`). */
function checkedEvent(event: Record<string, unknown>): HookEvent {
	const checked = validateEvent(event);
	if (checked.ok) return checked.value;
	const prefix = `${String(event.type)}.`;
	const messages = checked.errors.map((e) => (e.startsWith(prefix) ? `params.${e.slice(prefix.length)}` : e.replace(/^event\b/, "params")));
	throw serveError("invalid_params", messages.join("; "));
}

const newToolCallId = () => `call_${crypto.randomUUID().slice(0, 8)}`;

/** `emit` params: a hook event with its `type`; `toolCallId` is generated when missing, as the CLI does. */
export function emitParams(params: unknown): HookEvent {
	const event = objectParams(params, "holding a hook event {type, ...}");
	// The event table says which events carry a call id (`callId`); one left out is generated.
	if (typeof event.type === "string" && eventRule(event.type)?.callId && event.toolCallId === undefined) event.toolCallId = newToolCallId();
	return checkedEvent(event);
}

/** `toolCall` params `{toolName, toolCallId?, input}` as a `tool_call` event. */
export function toolCallParams(params: unknown): ToolCallEvent {
	const p = objectParams(params, "{toolName, toolCallId?, input}");
	const event = { type: "tool_call", toolName: p.toolName, toolCallId: p.toolCallId ?? newToolCallId(), input: p.input };
	return checkedEvent(event) as ToolCallEvent;
}

/** `context` params `{messages}`. */
export function contextParams(params: unknown): AgentMessage[] {
	const p = objectParams(params, "{messages}");
	return (checkedEvent({ type: "context", messages: p.messages }) as { messages: AgentMessage[] }).messages;
}

/** `beforeAgentStart` params `{prompt, images?}`. */
export function beforeAgentStartParams(params: unknown): { prompt: string; images?: ImageContent[] } {
	const p = objectParams(params, "{prompt, images?}");
	const event =
		p.images === undefined
			? { type: "before_agent_start", prompt: p.prompt }
			: { type: "before_agent_start", prompt: p.prompt, images: p.images };
	return checkedEvent(event) as { prompt: string; images?: ImageContent[] };
}

/** `command` params `{name, args?}`; a leading `/` in the name is dropped. */
export function commandParams(params: unknown): { name: string; args: string } {
	const p = objectParams(params, "{name, args?}");
	if (typeof p.name !== "string" || !p.name.replace(/^\//, ""))
		throw serveError(
			"invalid_params",
			`params.name: expected the command's name, e.g. "deploy" (got ${p.name === undefined ? "nothing" : JSON.stringify(p.name)})`,
		);
	if (p.args !== undefined && typeof p.args !== "string")
		throw serveError(
			"invalid_params",
			`params.args: expected the argument string, e.g. "staging --dry-run" (got ${JSON.stringify(p.args)})`,
		);
	return { name: p.name.replace(/^\//, ""), args: p.args ?? "" };
}
