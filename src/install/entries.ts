import { eventCommand } from "../agents/_shared/entry-shell.ts";
import { isRecord as isObject } from "../json.ts";
import type { ConfigText } from "./_config-text.ts";
import { kindOf } from "./_json-file.ts";
import { type JsonNode, memberOf } from "./_json-text.ts";
import { type AgentEvent, type AgentSpec, HTTP_TOKEN_VARIABLE } from "./agents.ts";
import { installError } from "./errors.ts";
import { isBridgeCommand } from "./own-entry.ts";

/** One change `install`/`uninstall` made (or would make) to a config. */
export interface EntryChange {
	action: "add" | "update" | "remove";
	/** The agent's event name. */
	event: string;
	matcher?: string;
	command: string;
}

type Json = Record<string, unknown>;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Where one of our handlers sits in an event's list (indices into the current tree). */
interface Found {
	event: string;
	index: number;
	/** Grouped layouts: the handler's index in `list[index].hooks`. */
	handlerIndex?: number;
	handler: Json;
	/** The group's matcher (grouped) or the handler's own (flat). */
	matcher?: string;
}

/** An http entry of ours: its `Authorization` header is the one {@link AgentSpec.httpHandler} writes. */
function isOurHttpHandler(handler: Json, spec: AgentSpec): boolean {
	if (!spec.httpHandler || handler.type !== "http" || !isObject(handler.headers)) return false;
	const auth = handler.headers.Authorization;
	return auth === `Bearer $${HTTP_TOKEN_VARIABLE}` || auth === `Bearer \${${HTTP_TOKEN_VARIABLE}}`;
}

/** Ours: a command `install` wrote (src/install/own-entry.ts), or an http entry carrying our token variable. */
function isOurs(handler: Json, spec: AgentSpec): boolean {
	return isBridgeCommand(handler[spec.commandKey], spec.id) || isOurHttpHandler(handler, spec);
}

/** What a change names: the command, or the URL of an http entry. */
function describeHandler(handler: Json, spec: AgentSpec): string {
	return String(handler[spec.commandKey] ?? handler.url);
}

/** `hooks.<event>` as a node, checked to be an array. */
function listOf(doc: ConfigText, event: string, file: string): JsonNode | undefined {
	const hooks = doc.hooks();
	const list = hooks && memberOf(hooks, event)?.value;
	if (list === undefined) return undefined;
	if (list.kind !== "array")
		throw installError("shape", file, `${file}: hooks.${event} must be an array, found ${kindOf(doc.value(list))}; not changed`);
	return list;
}

/** `root.hooks`, checked to be an object. */
function checkHooks(doc: ConfigText, file: string): JsonNode | undefined {
	const hooks = doc.hooks();
	if (hooks && hooks.kind !== "object")
		throw installError("shape", file, `${file}: "hooks" must be an object of event lists, found ${kindOf(doc.value(hooks))}; not changed`);
	return hooks;
}

function findOurs(doc: ConfigText, spec: AgentSpec, event: string, list: JsonNode): Found[] {
	const found: Found[] = [];
	const matcherOf = (value: Json) => (typeof value.matcher === "string" ? { matcher: value.matcher } : {});
	(list.items ?? []).forEach((item, index) => {
		if (item.kind !== "object") return;
		if (spec.layout === "flat") {
			const handler = doc.value(item) as Json;
			if (isOurs(handler, spec)) found.push({ event, index, handler, ...matcherOf(handler) });
			return;
		}
		const handlers = memberOf(item, "hooks")?.value;
		if (handlers?.kind !== "array") return;
		const group = doc.value(item) as Json;
		(handlers.items ?? []).forEach((node, handlerIndex) => {
			if (node.kind !== "object") return;
			const handler = doc.value(node) as Json;
			if (isOurs(handler, spec)) found.push({ event, index, handlerIndex, handler, ...matcherOf(group) });
		});
	});
	return found;
}

/** Every entry of ours, in any event list (not only those `install` writes). */
function findAll(doc: ConfigText, spec: AgentSpec): Found[] {
	const hooks = doc.hooks();
	if (hooks?.kind !== "object") return [];
	// One look per key, at the member JSON.parse keeps; non-lists are skipped (Gemini's `enabled`, `disabled`).
	const keys = [...new Set((hooks.members ?? []).map((m) => m.key))];
	return keys.flatMap((key) => {
		const list = memberOf(hooks, key)?.value;
		return list?.kind === "array" ? findOurs(doc, spec, key, list) : [];
	});
}

/**
 * Removes one found handler from the current text. A group, an event list or the `hooks` object left
 * empty by it goes too: install creates them when they are missing, and one that held only our entry
 * holds nothing of the user's (a container that was already empty stays).
 */
function removeFound(doc: ConfigText, found: Found): void {
	const root = doc.root();
	const hooks = doc.hooks() as JsonNode;
	const eventIndex = (hooks.members ?? []).findLastIndex((m) => m.key === found.event);
	const list = hooks.members?.[eventIndex]?.value as JsonNode;
	const handlers = found.handlerIndex === undefined ? undefined : memberOf(list.items?.[found.index] as JsonNode, "hooks")?.value;
	if (handlers && (handlers.items?.length ?? 0) > 1) doc.remove(handlers, found.handlerIndex as number);
	else if ((list.items?.length ?? 0) > 1) doc.remove(list, found.index);
	else if ((hooks.members?.length ?? 0) > 1) doc.remove(hooks, eventIndex);
	else
		doc.remove(
			root,
			(root.members ?? []).findLastIndex((m) => m.key === "hooks"),
		);
}

function newEntry(spec: AgentSpec, event: AgentEvent, handler: Json): Json {
	if (spec.layout === "flat") return event.matcher === undefined ? handler : { matcher: event.matcher, ...handler };
	return event.matcher === undefined ? { hooks: [handler] } : { matcher: event.matcher, hooks: [handler] };
}

/**
 * Adds one entry per event of `spec` running `command` — or, with `http`, one http entry per event
 * posting to that URL (`serve --http`) — by editing the text: a missing `hooks` object or event list is
 * inserted, an entry is appended to an existing list, and nothing else changes. An event that already
 * has our entry keeps its place: it is updated when it differs (a moved executable, a new timeout,
 * command ↔ http), and further copies of ours in that event are removed.
 */
export function addEntries(doc: ConfigText, spec: AgentSpec, command: string, file: string, http?: string): EntryChange[] {
	if (http !== undefined && !spec.httpHandler)
		throw installError("usage", file, `--http: ${spec.label} has no http hooks; install it without --http`);
	checkHooks(doc, file);
	for (const event of spec.events) listOf(doc, event.name, file); // check every list before changing any
	const changes: EntryChange[] = [];
	for (const event of spec.events) {
		// The command runs through the shell that cleans Bun's variables out first (src/agents/_shared/entry-shell.ts).
		const desired =
			http !== undefined && spec.httpHandler
				? spec.httpHandler(event, http)
				: spec.handler(event, eventCommand(command, event, spec.entryDeadlineSeconds));
		const change = { event: event.name, ...(event.matcher === undefined ? {} : { matcher: event.matcher }), command: http ?? command };
		const list = listOf(doc, event.name, file);
		const [first, ...extra] = list ? findOurs(doc, spec, event.name, list) : [];
		if (!first) {
			const entry = newEntry(spec, event, desired);
			const hooks = doc.hooks();
			if (list) doc.append(list, entry);
			else if (hooks) doc.append(hooks, [entry], event.name);
			else doc.append(doc.root(), { [event.name]: [entry] }, "hooks");
			changes.push({ action: "add", ...change });
			continue;
		}
		for (const copy of extra.reverse()) {
			changes.push({ action: "remove", event: event.name, command: describeHandler(copy.handler, spec) });
			removeFound(doc, copy);
		}
		if (updateFound(doc, spec, event, first, desired, file)) changes.push({ action: "update", ...change });
	}
	return changes;
}

/** Makes our existing entry `desired` (and its own group's matcher the event's); whether anything changed. */
function updateFound(doc: ConfigText, spec: AgentSpec, event: AgentEvent, found: Found, desired: Json, file: string): boolean {
	const item = (listOf(doc, event.name, file) as JsonNode).items?.[found.index] as JsonNode;
	if (spec.layout === "flat") {
		const entry = newEntry(spec, event, desired);
		if (sameJson(found.handler, entry)) return false;
		doc.replace(item, entry);
		return true;
	}
	const handlers = memberOf(item, "hooks")?.value as JsonNode;
	// The matcher is ours to set only when the group holds nothing but our handler.
	const wrongMatcher = handlers.items?.length === 1 && found.matcher !== event.matcher;
	if (sameJson(found.handler, desired) && !wrongMatcher) return false;
	if (!sameJson(found.handler, desired)) doc.replace(handlers.items?.[found.handlerIndex as number] as JsonNode, desired);
	if (wrongMatcher) {
		const group = (listOf(doc, event.name, file) as JsonNode).items?.[found.index] as JsonNode;
		const at = (group.members ?? []).findLastIndex((m) => m.key === "matcher");
		const matcher = group.members?.[at]?.value;
		if (event.matcher === undefined) doc.remove(group, at);
		else if (matcher) doc.replace(matcher, event.matcher);
		else doc.append(group, event.matcher, "matcher");
	}
	return true;
}

/**
 * Removes every entry of ours (in any event, not only those `install` writes) from the text, with the
 * containers this leaves empty (see {@link removeFound}). Undoes what {@link addEntries} wrote, byte
 * for byte.
 */
export function removeEntries(doc: ConfigText, spec: AgentSpec, file: string): EntryChange[] {
	checkHooks(doc, file);
	const found = findAll(doc, spec);
	const changes = found.map(
		(f): EntryChange => ({
			action: "remove",
			event: f.event,
			...(f.matcher === undefined ? {} : { matcher: f.matcher }),
			command: describeHandler(f.handler, spec),
		}),
	);
	// Last first, one at a time: each removal leaves the indices of the earlier ones as they were.
	for (let n = 0; n < found.length; n++) {
		const last = findAll(doc, spec).at(-1);
		if (last) removeFound(doc, last);
	}
	return changes;
}

/** Whether the text holds at least one entry of ours. */
export function hasEntries(doc: ConfigText, spec: AgentSpec): boolean {
	return findAll(doc, spec).length > 0;
}
