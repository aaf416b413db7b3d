import { lstat, rm } from "node:fs/promises";
import { homeDir } from "../paths.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { readJsonFile, serializeJsonFile } from "./_json-file.ts";
import { type Agent, agentSpec, type Scope } from "./agents.ts";
import { bridgeCommand } from "./bridge-command.ts";
import { addEntries, type EntryChange, hasEntries, removeEntries } from "./entries.ts";
import { InstallError } from "./errors.ts";
import { applyFiles, findOurFiles, planFiles, reported } from "./files.ts";

/** Options of {@link installBridge} and {@link uninstallBridge}. */
export interface InstallOptions {
	/** `project` (default): the config under `cwd`; `user`: the one under `home`. */
	scope?: Scope;
	/** The project directory (default: the current directory). */
	cwd?: string;
	/** The home directory (default: `$HOME`). */
	home?: string;
	/** Replaces the program part of the command (`<command> bridge <agent>`); install only. */
	command?: string | undefined;
	/** Compute and report, write nothing. */
	dryRun?: boolean;
	/** Write http entries posting to this URL (`serve --http`) instead of commands; Claude Code only. */
	http?: string | undefined;
}

/** What an install or uninstall did (or, with `dryRun`, would do). */
export interface InstallResult {
	agent: Agent;
	scope: Scope;
	/** The agent's config file. */
	file: string;
	/** Each entry added, updated or removed; empty when the file already was as wanted. */
	changes: EntryChange[];
	/** The file's new text; absent when nothing changed or the file is removed. */
	content?: string;
	/** Uninstall: the file held nothing but our entries (plus the skeleton install writes) and is deleted. */
	removeFile?: boolean;
	/** Whether the file was written or deleted (false for a dry run or no change). */
	written: boolean;
	/** What the agent still needs before the entries run. */
	notes: string[];
}

/** Where `agent`'s config file is at `scope`. */
export function bridgeConfigFile(agent: Agent, scope: Scope, dirs: { cwd?: string; home?: string } = {}): string {
	const dir = scope === "user" ? (dirs.home ?? homeDir()) : (dirs.cwd ?? process.cwd());
	return agentSpec(agent).file(scope, dir);
}

/**
 * Adds `agent`'s bridge entries, one per supported event, to its config at `scope`, keeping every other
 * key and entry. Idempotent; writes atomically in the file's own indentation; refuses (throws
 * {@link InstallError}, file untouched) a file that is not valid JSON or not a regular file.
 */
export async function installBridge(agent: Agent, options: InstallOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const scope = options.scope ?? "project";
	const file = bridgeConfigFile(agent, scope, options);
	const command = bridgeCommand(agent, options.command);
	const http = options.http === undefined ? undefined : httpUrl(options.http);
	if (spec.layout === "files") {
		if (http !== undefined) throw new InstallError("usage", file, `--http: ${spec.label} has no http hooks; install it without --http`);
		const dir = scope === "user" ? (options.home ?? homeDir()) : (options.cwd ?? process.cwd());
		const planned = await planFiles(file, spec, command);
		const result: InstallResult = { agent, scope, file, changes: planned.map(reported), written: false, notes: spec.notes(scope, dir) };
		if (planned.length > 0 && !options.dryRun) {
			await applyFiles(planned);
			result.written = true;
		}
		return result;
	}
	const config = await readJsonFile(file);
	const root = config.exists && config.text?.trim() ? config.root : { ...structuredClone(spec.base), ...config.root };
	const changes = addEntries(root, spec, command, file, http);
	const dir = scope === "user" ? (options.home ?? homeDir()) : (options.cwd ?? process.cwd());
	const notes = [...spec.notes(scope, dir), ...(http ? (spec.httpNotes?.(http) ?? []) : [])];
	const result: InstallResult = { agent, scope, file, changes, written: false, notes };
	if (changes.length === 0) return result;
	result.content = serializeJsonFile(config, root);
	if (!options.dryRun) result.written = (await write(file, result.content)) > 0;
	return result;
}

/**
 * Removes exactly our entries from `agent`'s config at `scope` (see {@link removeEntries}); everything
 * else keeps its content. A file left with nothing but the skeleton install writes (`{}`, or
 * `{"version": 1}` for Cursor and Copilot) is deleted; a symlinked one is emptied instead.
 */
export async function uninstallBridge(agent: Agent, options: InstallOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const scope = options.scope ?? "project";
	const file = bridgeConfigFile(agent, scope, options);
	if (spec.layout === "files") {
		const found = await findOurFiles(file, spec);
		if (found.length > 0 && !options.dryRun) await applyFiles(found);
		return { agent, scope, file, changes: found.map(reported), written: found.length > 0 && !options.dryRun, notes: [] };
	}
	const config = await readJsonFile(file);
	const result: InstallResult = { agent, scope, file, changes: [], written: false, notes: [] };
	if (!config.exists) return result;
	result.changes = removeEntries(config.root, spec, file);
	if (result.changes.length === 0) return result;
	const keys = Object.keys(config.root);
	const skeleton = keys.every((key) => key in spec.base && JSON.stringify(config.root[key]) === JSON.stringify(spec.base[key]));
	if (skeleton && (await lstat(file)).isFile()) result.removeFile = true;
	else result.content = serializeJsonFile(config, config.root);
	if (options.dryRun) return result;
	if (result.removeFile) await rm(file);
	else await write(file, result.content as string);
	result.written = true;
	return result;
}

/** `--http URL`, checked: an http(s) URL (Claude Code posts only to loopback addresses). */
function httpUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new InstallError("usage", undefined, `--http ${value}: expected the URL serve --http listens on, e.g. http://127.0.0.1:8377/`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:")
		throw new InstallError("usage", undefined, `--http ${value}: expected an http:// or https:// URL, e.g. http://127.0.0.1:8377/`);
	return url.href;
}

async function write(file: string, content: string): Promise<number> {
	try {
		return await writeFileAtomic(file, content);
	} catch (error) {
		throw new InstallError("io", file, (error as Error).message);
	}
}

/** Whether {@link bridgeStatus} found our entries at each level. */
export interface BridgeStatus {
	project: boolean;
	user: boolean;
	files: { project: string; user: string };
	/** A config that could not be read or parsed (it then counts as not installed). */
	errors: string[];
}

/** Whether `agent`'s project and user configs hold our bridge entries; never throws. */
export async function bridgeStatus(agent: Agent, dirs: { cwd?: string; home?: string } = {}): Promise<BridgeStatus> {
	const spec = agentSpec(agent);
	const files = { project: bridgeConfigFile(agent, "project", dirs), user: bridgeConfigFile(agent, "user", dirs) };
	const errors: string[] = [];
	const check = async (file: string) => {
		if (spec.layout === "files") return (await findOurFiles(file, spec)).length > 0;
		try {
			return hasEntries((await readJsonFile(file)).root, spec);
		} catch (error) {
			errors.push((error as Error).message);
			return false;
		}
	};
	const [project, user] = await Promise.all([check(files.project), check(files.user)]);
	return { project, user, files, errors };
}
