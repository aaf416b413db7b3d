import { lstat, rm } from "node:fs/promises";
import { entryNoteFor } from "../agents/_shared/entry-shell.ts";
import { homeDir } from "../paths.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { ConfigText } from "./_config-text.ts";
import {
	createdFor,
	missingDirs,
	missingFolders,
	recordCreated,
	recordFolders,
	removeEmptyDirs,
	removeRecordedFolders,
} from "./_install-record.ts";
import { type JsonFile, readJsonFile } from "./_json-file.ts";
import { type Agent, type AgentSpec, agentSpec, type Scope } from "./agents.ts";
import { bridgeCommand, PATH_PROGRAM } from "./bridge-command.ts";
import { addEntries, type EntryChange, hasEntries, removeEntries } from "./entries.ts";
import { installError } from "./errors.ts";
import { applyFiles, findOurFiles, planFiles, readInstalledFile, reported } from "./files.ts";
import { applyPlugin, findOurPlugin, foreignPlugin, planPlugin } from "./plugin-file.ts";

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
	/** `managed`: the agent's administrator configuration (`install --managed`). */
	scope: Scope | "managed";
	/** The agent's config file. */
	file: string;
	/** Each entry added, updated or removed; empty when the file already was as wanted. */
	changes: EntryChange[];
	/** The file's new text; absent when nothing changed or the file is removed. */
	content?: string;
	/** Uninstall: install created the file, and it holds nothing but the skeleton install writes: it is deleted. */
	removeFile?: boolean;
	/** Uninstall: the folders install created for the file, removed once empty. */
	removedDirs?: string[];
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

/** The text to edit: the file's own, or for a missing or blank one the skeleton a new file gets. */
function configText(config: JsonFile, base: Record<string, unknown>): ConfigText {
	const blank = config.text === undefined || /^\uFEFF?[ \t\r\n]*$/.test(config.text);
	return blank ? ConfigText.fresh(structuredClone(base)) : new ConfigText(config.text as string);
}

/**
 * Adds `agent`'s bridge entries, one per supported event, to its config at `scope`, by editing the
 * file's text: every byte of it that is not our entry stays as it was (see {@link addEntries}).
 * Idempotent; writes atomically; refuses (throws {@link installError}, file untouched) a file that is
 * not valid JSON or not a regular file. What it created (the file, its folders) is recorded for
 * {@link uninstallBridge}.
 */
export async function installBridge(agent: Agent, options: InstallOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const scope = options.scope ?? "project";
	const file = bridgeConfigFile(agent, scope, options);
	if (spec.layout === "plugin") return installPlugin(agent, spec, scope, file, options);
	// A project's entries name the program found on PATH: the config is committed (see PATH_PROGRAM).
	const command = bridgeCommand(agent, options.command ?? (scope === "project" ? PATH_PROGRAM : undefined));
	if (spec.layout === "package") return installPackage(agent, spec, scope, command, options);
	const http = options.http === undefined ? undefined : httpUrl(options.http);
	if (spec.layout === "files") {
		if (http !== undefined) throw installError("usage", file, `--http: ${spec.label} has no http hooks; install it without --http`);
		const dir = scope === "user" ? (options.home ?? homeDir()) : (options.cwd ?? process.cwd());
		const planned = await planFiles(file, spec, command);
		const result: InstallResult = { agent, scope, file, changes: planned.map(reported), written: false, notes: spec.notes(scope, dir) };
		if (planned.length > 0 && !options.dryRun) {
			const created = await missingFolders(file);
			await applyFiles(planned);
			result.written = true;
			await recordOrNote(options.home ?? homeDir(), file, created, result.notes);
		}
		return result;
	}
	const config = await readJsonFile(file);
	const doc = configText(config, spec.base);
	const fresh = !config.exists || !hasEntries(doc, spec);
	const changes = addEntries(doc, spec, command, file, http);
	const dir = scope === "user" ? (options.home ?? homeDir()) : (options.cwd ?? process.cwd());
	const shell = http === undefined ? entryNoteFor(spec.events, spec.entryDeadlineSeconds) : undefined;
	const notes = [...spec.notes(scope, dir), ...(http ? (spec.httpNotes?.(http) ?? []) : []), ...(shell ? [shell] : [])];
	const result: InstallResult = { agent, scope, file, changes, written: false, notes };
	if (changes.length === 0) return result;
	result.content = doc.text;
	if (options.dryRun) return result;
	// Before writing: afterwards the folders exist. An install that only updates our entries keeps the record.
	const created = fresh ? { file: !config.exists, dirs: config.exists ? [] : await missingDirs(file) } : undefined;
	result.written = (await write(file, result.content)) > 0;
	if (created) {
		try {
			await recordCreated(options.home ?? homeDir(), file, created);
		} catch (error) {
			notes.push(
				`could not record what install created (${(error as Error).message}); uninstall will not remove the folders it made for ${file}`,
			);
		}
	}
	return result;
}

/**
 * Removes exactly our entries from `agent`'s config at `scope` (see {@link removeEntries}), by editing
 * the text: after an install, the file is byte for byte what it was before. A file install created
 * (or, with no record of it, from an earlier version) that is left with nothing but the skeleton
 * install writes (`{}`, or `{"version": 1}` for Cursor and Copilot) is deleted — a symlinked one is
 * emptied instead — and then the folders install created for it, while they are empty.
 */
export async function uninstallBridge(agent: Agent, options: InstallOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const scope = options.scope ?? "project";
	const file = bridgeConfigFile(agent, scope, options);
	if (spec.layout === "package") return uninstallPackage(agent, spec, scope, options);
	if (spec.layout === "files" || spec.layout === "plugin") {
		const found = spec.layout === "files" ? await findOurFiles(file, spec) : await findOurPlugin(file, spec);
		const removing = found.length > 0 && !options.dryRun;
		if (removing) await applyFiles(found);
		const foreign = spec.layout === "plugin" ? await foreignPlugin(file, spec) : undefined;
		const notes = foreign ? [foreign] : [];
		const result: InstallResult = { agent, scope, file, changes: found.map(reported), written: removing, notes };
		// The folders install made for our files, once nothing else is in them (never one that was there before).
		const removed = removing ? await removeRecordedFolders(options.home ?? homeDir(), file) : [];
		if (removed.length > 0) result.removedDirs = removed;
		return result;
	}
	const config = await readJsonFile(file);
	const result: InstallResult = { agent, scope, file, changes: [], written: false, notes: [] };
	if (!config.exists) return result;
	const doc = configText(config, {});
	result.changes = removeEntries(doc, spec, file);
	if (result.changes.length === 0) return result;
	const home = options.home ?? homeDir();
	const created = await createdFor(home, file);
	const left = JSON.parse(doc.text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
	const keys = Object.keys(left);
	const skeleton = keys.every((key) => key in spec.base && JSON.stringify(left[key]) === JSON.stringify(spec.base[key]));
	if (skeleton && (created?.file ?? true) && (await lstat(file)).isFile()) result.removeFile = true;
	else result.content = doc.text;
	if (options.dryRun) return result;
	if (result.removeFile) {
		await rm(file);
		const removed = await removeEmptyDirs(file, created?.dirs ?? []);
		if (removed.length > 0) result.removedDirs = removed;
	} else await write(file, result.content as string);
	result.written = true;
	await recordCreated(home, file, undefined).catch(() => {}); // a stale record only keeps folders in place
	return result;
}

/**
 * The `plugin` layout: the runtime written where the plugin file imports it (executable only, see
 * plugin-runtime.ts), then the one plugin file. `--command` and `--http` do not apply.
 */
async function installPlugin(agent: Agent, spec: AgentSpec, scope: Scope, file: string, options: InstallOptions): Promise<InstallResult> {
	if (options.http !== undefined)
		throw installError("usage", file, `--http: ${spec.label} loads a plugin, it has no http hooks; install it without --http`);
	if (options.command !== undefined)
		throw installError(
			"usage",
			file,
			`--command: ${spec.label} loads a plugin in its own process; it runs no command; install it without --command`,
		);
	const home = options.home ?? homeDir();
	const dir = scope === "user" ? home : (options.cwd ?? process.cwd());
	const { materializeRuntime } = await import("./plugin-runtime.ts");
	const runtime = await materializeRuntime(home, options.dryRun === true);
	const planned = await planPlugin(file, spec, runtime.path);
	const notes = [...spec.notes(scope, dir), ...runtime.written.map((path) => `${options.dryRun ? "would write" : "wrote"} ${path}`)];
	const result: InstallResult = { agent, scope, file, changes: planned.map(reported), written: false, notes };
	if (planned[0]?.text !== undefined) result.content = planned[0].text;
	if (planned.length > 0 && !options.dryRun) {
		const created = await missingFolders(file);
		await applyPlugin(planned);
		result.written = true;
		await recordOrNote(home, file, created, result.notes);
	}
	return result;
}

/** Records the folders install created for the folder `dir`, or says in `notes` why uninstall will keep them. */
async function recordOrNote(home: string, dir: string, created: string[], notes: string[]): Promise<void> {
	try {
		await recordFolders(home, dir, created);
	} catch (error) {
		notes.push(
			`could not record what install created (${(error as Error).message}); uninstall will not remove the folders it made for ${dir}`,
		);
	}
}

/** The `package` layout (package-file.ts): the plugin folder, and its registration in the agent's config. */
async function installPackage(
	agent: Agent,
	spec: AgentSpec,
	scope: Scope,
	command: string,
	options: InstallOptions,
): Promise<InstallResult> {
	if (options.http !== undefined)
		throw installError("usage", undefined, `--http: ${spec.label} loads a plugin, it has no http hooks; install it without --http`);
	const home = options.home ?? homeDir();
	const dir = scope === "user" ? home : (options.cwd ?? process.cwd());
	const { applyPackageInstall, planPackageInstall } = await import("./package-file.ts");
	const plan = await planPackageInstall(spec, scope, dir, home, command);
	const notes = [`the plugin folder: ${plan.folder}`, ...spec.notes(scope, dir)];
	const result: InstallResult = { agent, scope, file: plan.config, changes: plan.changes, written: false, notes };
	if (plan.content !== undefined) result.content = plan.content;
	if (plan.changes.length > 0 && !options.dryRun) {
		await applyPackageInstall(plan, home);
		result.written = true;
	}
	return result;
}

async function uninstallPackage(agent: Agent, spec: AgentSpec, scope: Scope, options: InstallOptions): Promise<InstallResult> {
	const home = options.home ?? homeDir();
	const dir = scope === "user" ? home : (options.cwd ?? process.cwd());
	const { applyPackageUninstall, planPackageUninstall } = await import("./package-file.ts");
	const plan = await planPackageUninstall(spec, scope, dir, home);
	const result: InstallResult = { agent, scope, file: plan.config, changes: plan.changes, written: false, notes: [] };
	if (plan.content !== undefined) result.content = plan.content;
	if (plan.removeConfig) result.removeFile = true;
	if (plan.changes.length > 0 && !options.dryRun) {
		await applyPackageUninstall(plan, home);
		result.written = true;
	}
	return result;
}

/** `--http URL`, checked: an http(s) URL (Claude Code posts only to loopback addresses). */
function httpUrl(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw installError("usage", undefined, `--http ${value}: expected the URL serve --http listens on, e.g. http://127.0.0.1:8377/`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:")
		throw installError("usage", undefined, `--http ${value}: expected an http:// or https:// URL, e.g. http://127.0.0.1:8377/`);
	return url.href;
}

async function write(file: string, content: string): Promise<number> {
	try {
		return await writeFileAtomic(file, content);
	} catch (error) {
		throw installError("io", file, (error as Error).message);
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
		if (spec.layout === "package")
			return (await readInstalledFile(`${file}/index.mjs`).catch(() => undefined))?.includes(spec.package?.marker ?? "\0") === true;
		if (spec.layout === "plugin") {
			const foreign = await foreignPlugin(file, spec).catch(() => undefined);
			if (foreign) errors.push(foreign.replace(/; left in place$/, "; not counted as installed"));
			return (await findOurPlugin(file, spec).catch(() => [])).length > 0;
		}
		try {
			const config = await readJsonFile(file);
			return config.text !== undefined && hasEntries(configText(config, {}), spec);
		} catch (error) {
			errors.push((error as Error).message);
			return false;
		}
	};
	const [project, user] = await Promise.all([check(files.project), check(files.user)]);
	return { project, user, files, errors };
}
