import { isRecord as isObject } from "../json.ts";
import { kindOf } from "./_json-file.ts";
import { type AgentEvent, type AgentSpec, HTTP_TOKEN_VARIABLE } from "./agents.ts";
import { isBridgeCommand } from "./bridge-command.ts";
import { InstallError } from "./errors.ts";

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

/** Where one of our handlers sits in an event's list. */
interface Found {
	index: number;
	/** Grouped layouts: the handler's index in `list[index].hooks`. */
	handlerIndex?: number;
	handler: Json;
}

/** `root.hooks`, checked to be an object; created (appended last) when `create` and missing. */
function hooksOf(root: Json, file: string, create: boolean): Json | undefined {
	if (root.hooks === undefined) {
		if (!create) return undefined;
		root.hooks = {};
	}
	if (!isObject(root.hooks))
		throw new InstallError("shape", file, `${file}: "hooks" must be an object of event lists, found ${kindOf(root.hooks)}; not changed`);
	return root.hooks;
}

function listOf(hooks: Json, event: string, file: string): unknown[] | undefined {
	const list = hooks[event];
	if (list === undefined) return undefined;
	if (!Array.isArray(list))
		throw new InstallError("shape", file, `${file}: hooks.${event} must be an array, found ${kindOf(list)}; not changed`);
	return list;
}

/** An http entry of ours: its `Authorization` header names {@link HTTP_TOKEN_VARIABLE} (whatever the URL). */
function isOurHttpHandler(handler: Json, spec: AgentSpec): boolean {
	if (!spec.httpHandler || handler.type !== "http" || !isObject(handler.headers)) return false;
	const auth = handler.headers.Authorization;
	return typeof auth === "string" && new RegExp(`\\$\\{?${HTTP_TOKEN_VARIABLE}\\}?`).test(auth);
}

/** Ours: a `bridge <agent>` command, or (agents with http hooks) an http entry carrying our token variable. */
function isOurs(handler: Json, spec: AgentSpec): boolean {
	return isBridgeCommand(handler[spec.commandKey], spec.id) || isOurHttpHandler(handler, spec);
}

/** What a change names: the command, or the URL of an http entry. */
function describeHandler(handler: Json, spec: AgentSpec): string {
	return String(handler[spec.commandKey] ?? handler.url);
}

function findOurs(list: unknown[], spec: AgentSpec): Found[] {
	const found: Found[] = [];
	list.forEach((item, index) => {
		if (!isObject(item)) return;
		if (spec.layout === "flat") {
			if (isOurs(item, spec)) found.push({ index, handler: item });
			return;
		}
		if (!Array.isArray(item.hooks)) return;
		item.hooks.forEach((handler, handlerIndex) => {
			if (isObject(handler) && isOurs(handler, spec)) found.push({ index, handlerIndex, handler });
		});
	});
	return found;
}

/** Removes found handlers, last first; a group left without handlers goes too (it only held ours). */
function removeFound(list: unknown[], found: Found[]): void {
	for (const { index, handlerIndex } of [...found].reverse()) {
		if (handlerIndex === undefined) {
			list.splice(index, 1);
			continue;
		}
		const handlers = (list[index] as Json).hooks as unknown[];
		handlers.splice(handlerIndex, 1);
		if (handlers.length === 0) list.splice(index, 1);
	}
}

function matcherOf(spec: AgentSpec, list: unknown[], found: Found): string | undefined {
	const holder = spec.layout === "grouped" ? list[found.index] : found.handler;
	const matcher = (holder as Json).matcher;
	return typeof matcher === "string" ? matcher : undefined;
}

function newEntry(spec: AgentSpec, event: AgentEvent, handler: Json): Json {
	if (spec.layout === "flat") return event.matcher === undefined ? handler : { matcher: event.matcher, ...handler };
	return event.matcher === undefined ? { hooks: [handler] } : { matcher: event.matcher, hooks: [handler] };
}

/**
 * Adds one entry per event of `spec` running `command`, in place — or, with `http`, one http entry per
 * event posting to that URL (`serve --http`). An event that already has our entry (command or http)
 * keeps its place: it is updated when it differs (a moved executable, a new timeout, command ↔ http),
 * and further copies of ours in that event are removed. Everything else is left as it is.
 */
export function addEntries(root: Json, spec: AgentSpec, command: string, file: string, http?: string): EntryChange[] {
	if (http !== undefined && !spec.httpHandler)
		throw new InstallError("usage", file, `--http: ${spec.label} has no http hooks; install it without --http`);
	const changes: EntryChange[] = [];
	const hooks = hooksOf(root, file, true) as Json;
	for (const event of spec.events) listOf(hooks, event.name, file); // check every list before changing any
	for (const event of spec.events) {
		const desired = http !== undefined && spec.httpHandler ? spec.httpHandler(event, http) : spec.handler(event, command);
		let list = listOf(hooks, event.name, file);
		if (list === undefined) {
			list = [];
			hooks[event.name] = list;
		}
		const [first, ...extra] = findOurs(list, spec);
		const change = { event: event.name, ...(event.matcher === undefined ? {} : { matcher: event.matcher }), command: http ?? command };
		if (!first) {
			list.push(newEntry(spec, event, desired));
			changes.push({ action: "add", ...change });
			continue;
		}
		for (const copy of extra) changes.push({ action: "remove", event: event.name, command: describeHandler(copy.handler, spec) });
		removeFound(list, extra);
		if (spec.layout === "flat") {
			const entry = newEntry(spec, event, desired);
			if (sameJson(first.handler, entry)) continue;
			list[first.index] = entry;
		} else {
			const group = list[first.index] as Json;
			const ownGroup = (group.hooks as unknown[]).length === 1;
			const wrongMatcher = ownGroup && matcherOf(spec, list, first) !== event.matcher;
			if (sameJson(first.handler, desired) && !wrongMatcher) continue;
			(group.hooks as unknown[])[first.handlerIndex as number] = desired;
			if (wrongMatcher) setMatcher(group, event.matcher);
		}
		changes.push({ action: "update", ...change });
	}
	return changes;
}

function setMatcher(group: Json, matcher: string | undefined): void {
	if (matcher === undefined) delete group.matcher;
	else if ("matcher" in group) group.matcher = matcher;
	else {
		const hooks = group.hooks;
		delete group.hooks;
		Object.assign(group, { matcher, hooks });
	}
}

/**
 * Removes every entry of ours (in any event, not only those `install` writes), in place. A group, an
 * event list or the `hooks` object that this leaves empty is removed: install creates them when they
 * are missing, and one that held only our entries holds nothing of the user's. A container that was
 * already empty stays.
 */
export function removeEntries(root: Json, spec: AgentSpec, file: string): EntryChange[] {
	const hooks = hooksOf(root, file, false);
	if (!hooks) return [];
	const changes: EntryChange[] = [];
	// Only lists are looked at: Gemini keeps control fields (`enabled`, `disabled`) beside its events.
	for (const event of Object.keys(hooks)) {
		const list = hooks[event];
		if (!Array.isArray(list)) continue;
		const found = findOurs(list, spec);
		if (found.length === 0) continue;
		for (const f of found) {
			const matcher = matcherOf(spec, list, f);
			changes.push({ action: "remove", event, ...(matcher === undefined ? {} : { matcher }), command: describeHandler(f.handler, spec) });
		}
		removeFound(list, found);
		if (list.length === 0) delete hooks[event];
	}
	if (changes.length > 0 && Object.keys(hooks).length === 0) delete root.hooks;
	return changes;
}

/** Whether `root` holds at least one entry of ours. */
export function hasEntries(root: Json, spec: AgentSpec): boolean {
	if (!isObject(root.hooks)) return false;
	return Object.values(root.hooks).some((list) => Array.isArray(list) && findOurs(list, spec).length > 0);
}
