import { isRecord as isObject } from "../../json.ts";
import { lstatSync, readFileSync } from "node:fs";
import { join } from "pathe";
import { scriptMarker } from "../../install/agents.ts";
import { shellQuote } from "../../install/bridge-command.ts";
import { isBridgeArgv, isBridgeCommand } from "../../install/own-entry.ts";
import { ownHooksOf } from "./own-hooks.ts";
import { matcherProblem } from "../../agents/_shared/matcher.ts";
import type { AgentHookEntry, AgentId } from "../../agents/_shared/entry.ts";

/** What {@link readAgentConfig} found in one file. */
export interface AgentConfigRead {
	entries: AgentHookEntry[];
	/** One per problem, naming the file and the key; the offending part is ignored, never the whole run. */
	warnings: string[];
}

/** Where and how one file is read. */
export interface AgentConfigFile {
	agent: AgentId;
	file: string;
	/** `grouped`: `hooks.<Event>: [{matcher?, hooks: [handler]}]` (Claude, Codex, Gemini); `flat`: `hooks.<event>: [handler]` (Cursor). */
	layout: "grouped" | "flat" | "files";
	/** Set for project-level files: the project they belong to. */
	projectDir?: string;
	/** Cursor user hooks run from `~/.cursor`. */
	runDir?: string;
}

type Json = Record<string, unknown>;

/**
 * The entries `install` wrote point back at us: running them would call a bridge again. One recogniser
 * with install's (a user's own command that merely ends in `bridge claude` runs like any other).
 */
function isOurs(command: string, args: string[] | undefined): boolean {
	return args ? isBridgeArgv([command, ...args]) : isBridgeCommand(command);
}

/**
 * Reads the command hooks of one agent config file. A missing file is empty; a file that is not JSON,
 * a `hooks` that is not an object, a list, group or handler of the wrong shape is a warning naming the
 * file and the key, and only that part is skipped. Handlers of other types (`http`, `prompt`, `agent`,
 * `mcp_tool`), events without a counterpart and our own bridge entries are left out silently.
 */
export function readAgentConfig(spec: AgentConfigFile): AgentConfigRead {
	const { file, agent } = spec;
	if (spec.layout === "files") return readAgentHookFiles(spec);
	let text: string;
	try {
		text = readFileSync(file, "utf8"); // sync: small files, most of them missing
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { entries: [], warnings: [] };
		return { entries: [], warnings: [`${file}: cannot read (${code ?? (error as Error).message}), ignored`] };
	}
	let root: unknown;
	try {
		root = JSON.parse(text);
	} catch (error) {
		return { entries: [], warnings: [`${file}: invalid JSON (${(error as Error).message}), its hooks are ignored`] };
	}
	if (!isObject(root)) return { entries: [], warnings: [`${file}: must be a JSON object, its hooks are ignored`] };
	if (root.hooks === undefined || root.disableAllHooks === true) return { entries: [], warnings: [] };
	if (!isObject(root.hooks)) return { entries: [], warnings: [`${file}: hooks must be an object of event lists, ignored`] };
	const hooks = root.hooks;
	const own = ownHooksOf(agent);
	const quirks = own.quirks ?? {};
	if (quirks.enabledSwitch && hooks.enabled === false) return { entries: [], warnings: [] };
	const disabledNames =
		quirks.enabledSwitch && Array.isArray(hooks.disabled) ? new Set(hooks.disabled.filter((n) => typeof n === "string")) : new Set();
	const targets = own.dialect().events;

	const entries: AgentHookEntry[] = [];
	const warnings: string[] = [];
	const warn = (key: string, problem: string) => warnings.push(`${file}: ${key} ${problem}, ignored`);
	for (const [event, list] of Object.entries(hooks)) {
		if (quirks.controlKeys?.includes(event)) continue;
		if (!Array.isArray(list)) {
			warn(`hooks.${event}`, "must be an array");
			continue;
		}
		const target = targets[event];
		if (!target) continue; // an event with no counterpart among ours: not run (docs/sources-and-trust.md#hooks-you-already-have)
		const add = (handler: unknown, key: string, matcher: unknown, group?: Json) => {
			if (!isObject(handler)) return warn(key, "must be an object");
			const type = handler.type ?? "command";
			if (type !== "command") return; // http, prompt, agent, mcp_tool: not command hooks
			const entry = toEntry(spec, event, key, handler, matcher, warn);
			if (!entry || isOurs(entry.command, entry.args)) return;
			if (typeof handler.name === "string" && disabledNames.has(handler.name)) return;
			entry.target = target;
			const problem = matcherProblem(entry.matcher, own.matchMode);
			if (problem)
				warnings.push(
					`${file}: ${key.replace(/\.hooks\[\d+\]$/, "")}.matcher ${problem}; the entry matches ${own.matchMode === "regex-or-exact" ? "only that exact name" : "nothing"}`,
				);
			entry.raw = group && matcher !== undefined ? { matcher, ...handler } : { ...handler };
			entries.push(entry);
		};
		for (const [i, item] of list.entries()) {
			const key = `hooks.${event}[${i}]`;
			if (spec.layout === "flat") add(item, key, isObject(item) ? item.matcher : undefined);
			else if (!isObject(item)) warn(key, "must be an object with a hooks array");
			else if (item.matcher !== undefined && typeof item.matcher !== "string") warn(`${key}.matcher`, "must be a string");
			else if (!Array.isArray(item.hooks)) warn(`${key}.hooks`, "must be an array");
			else for (const [j, handler] of item.hooks.entries()) add(handler, `${key}.hooks[${j}]`, item.matcher, item);
		}
	}
	return { entries, warnings };
}

function toEntry(
	spec: AgentConfigFile,
	event: string,
	key: string,
	handler: Json,
	matcher: unknown,
	warn: (key: string, problem: string) => void,
): AgentHookEntry | undefined {
	const own = ownHooksOf(spec.agent);
	if (typeof handler.command !== "string" || !handler.command.trim()) return void warn(`${key}.command`, "must be a non-empty string");
	if (matcher !== undefined && typeof matcher !== "string") return void warn(`${key}.matcher`, "must be a string");
	let args: string[] | undefined;
	if (handler.args !== undefined) {
		if (!own.quirks?.execForm || !Array.isArray(handler.args) || !handler.args.every((a) => typeof a === "string"))
			return void warn(`${key}.args`, own.quirks?.execForm ? "must be an array of strings" : `is not a ${spec.agent} field`);
		args = handler.args as string[];
	}
	let timeoutMs: number | undefined;
	if (handler.timeout !== undefined) {
		if (typeof handler.timeout !== "number" || !(handler.timeout > 0) || !Number.isFinite(handler.timeout))
			warn(`${key}.timeout`, "must be a positive number (the agent's default applies)");
		else timeoutMs = handler.timeout * own.timeoutUnitMs;
	}
	const entry: AgentHookEntry = {
		agent: spec.agent,
		file: spec.file,
		key,
		event,
		target: "tool_call",
		command: handler.command,
		raw: {},
	};
	if (typeof matcher === "string") entry.matcher = matcher;
	if (args) entry.args = args;
	if (typeof handler.shell === "string" && own.quirks?.execForm) entry.shell = handler.shell;
	if (timeoutMs !== undefined) entry.timeoutMs = timeoutMs;
	if (spec.projectDir) entry.projectDir = spec.projectDir;
	if (spec.runDir) entry.runDir = spec.runDir;
	return entry;
}

/**
 * The `files` layout (Cline): `spec.file` is a folder holding one executable per event, named after the
 * event. Each executable regular file there is one entry that runs on every occurrence of its event (the
 * layout has no matchers). A file `install` wrote (it holds the agent's marker line) is ours and left
 * out, as it would call a bridge again; a file at an event's name that cannot run (not executable, not a
 * regular file) is a warning, since the agent would not run it either.
 */
function readAgentHookFiles(spec: AgentConfigFile): AgentConfigRead {
	const own = ownHooksOf(spec.agent);
	const entries: AgentHookEntry[] = [];
	const warnings: string[] = [];
	const marker = scriptMarker(spec.agent);
	for (const [event, target] of Object.entries(own.dialect().events)) {
		const path = join(spec.file, event);
		const info = lstatSync(path, { throwIfNoEntry: false });
		if (!info) continue;
		if (!info.isFile() || (info.mode & 0o111) === 0) {
			warnings.push(`${path}: not an executable regular file, so ${own.displayName} does not run it either; ignored`);
			continue;
		}
		let text: string;
		try {
			text = readFileSync(path, "utf8");
		} catch (error) {
			warnings.push(`${path}: cannot read (${(error as Error).message}), ignored`);
			continue;
		}
		if (text.split("\n").includes(marker)) continue;
		const entry: AgentHookEntry = {
			agent: spec.agent,
			file: path,
			key: event,
			event,
			target,
			command: shellQuote(path),
			raw: { file: event },
		};
		if (spec.projectDir) entry.projectDir = spec.projectDir;
		if (spec.runDir) entry.runDir = spec.runDir;
		entries.push(entry);
	}
	return { entries, warnings };
}
