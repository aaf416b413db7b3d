import { accessSync, constants, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname } from "pathe";
import { entryNoteFor } from "../agents/_shared/entry-shell.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { rootOnlyProblem } from "../fs/root-owned.ts";
import { ConfigText } from "./_config-text.ts";
import { readJsonFile } from "./_json-file.ts";
import { memberOf } from "./_json-text.ts";
import { pinTrue, unpin } from "./managed-pin.ts";
import { type Agent, agentSpec, installableAgents } from "./agents.ts";
import { bridgeCommand, selfArgv, shellQuote } from "./bridge-command.ts";
import { addEntries, removeEntries } from "./entries.ts";
import { installError } from "./errors.ts";
import type { InstallResult } from "./install.ts";
import { shellWords } from "./own-entry.ts";

/*
 * `install <agent> --managed`: our entries in the configuration an administrator deploys, which the
 * agent reads before (and, with its "managed hooks only" switch, instead of) the user's and the
 * project's. Everything about it is the machine's, not a user's: the file is at the agent's fixed system
 * path, the command it runs must be an executable no user can replace, and what we set besides our
 * entries (the switch) is recorded in a root-owned file beside the system hooks, so `uninstall --managed`
 * puts back exactly what was there.
 */

/** The record of what a managed install set besides its entries: per file, the switch and its value before. */
export const MANAGED_RECORD = "/etc/xcsh/managed-installs.json";

type Platform = "linux" | "darwin" | "win32";

/** Options of {@link installManaged} and {@link uninstallManaged}. */
export interface ManagedOptions {
	/** The program the entries run (`<command> bridge <agent>`); default: this executable. Must be at a system path. */
	command?: string | undefined;
	/** Also set the agent's "managed hooks only" switch (install only). */
	onlyManaged?: boolean;
	dryRun?: boolean;
	/** The OS whose path is used (default: this one); only for showing another OS's path. */
	platform?: Platform;
}

/** Agents with a managed hook channel, for messages. */
export function managedAgents(): Agent[] {
	return installableAgents().filter((agent) => agentSpec(agent).managed !== undefined);
}

/** `agent`'s managed config file on `platform`; a one-line refusal for an agent that has none. */
export function managedConfigFile(agent: Agent, platform: Platform = currentPlatform()): string {
	const spec = agentSpec(agent);
	if (!spec.managed)
		throw installError(
			"usage",
			undefined,
			`--managed: ${spec.label} has no managed configuration for hooks; agents with one: ${managedAgents().join(", ")}`,
		);
	return spec.managed.files[platform];
}

function currentPlatform(): Platform {
	return process.platform === "darwin" || process.platform === "win32" ? process.platform : "linux";
}

/**
 * Why `path` is not at a system path, or `undefined`: it, every folder above it and every symlink target
 * on the way must be owned by root and writable by no one else (src/fs/root-owned.ts) — a user who could
 * replace the executable, or rename a folder it sits in, could replace the guard.
 */
function notSystemOwned(path: string): string | undefined {
	const problem = rootOnlyProblem(path);
	return problem === null ? `${path} does not exist` : problem;
}

/** The entries' program, checked: an absolute path (every absolute word of it) that only root can change. */
function systemCommand(command: string | undefined): string {
	const words = command === undefined ? selfArgv() : shellWords(command);
	if (!words || words.length === 0 || !words[0]?.startsWith("/"))
		throw installError(
			"usage",
			undefined,
			"--managed: --command must start with the absolute path of the executable at a system path, e.g. --command /usr/local/bin/xcsh-hooks",
		);
	// The agent runs the entry in the project's folder: a relative word (`cli.ts`, `--preload=./x`) would name
	// the project's file, and Bun without `--no-env-file --config=/dev/null` reads the project's `.env` and
	// `bunfig.toml` (whose `preload` runs before the guard). Neither is a program only root can change.
	const relative = words.slice(1).find((w) => {
		const value = w.startsWith("-") ? w.slice(w.indexOf("=") + 1 || w.length) : w;
		return value !== "" && !value.startsWith("/") && (!w.startsWith("-") || value.includes("/") || value.includes("."));
	});
	if (relative !== undefined)
		throw installError("usage", undefined, `--managed: every path in --command must be absolute, but ${relative} is not`);
	const program0 = (words[0] as string).slice((words[0] as string).lastIndexOf("/") + 1);
	if (/^bunx?(\.exe)?$/.test(program0) && !(words.includes("--no-env-file") && words.some((w) => w.startsWith("--config="))))
		throw installError(
			"usage",
			undefined,
			"--managed: a --command running Bun needs --no-env-file --config=/dev/null (else the project's .env and bunfig.toml apply), e.g. --command '/usr/local/bin/bun --no-env-file --config=/dev/null /opt/xcsh-hooks/src/cli.ts'",
		);
	if (process.platform !== "win32")
		for (const word of words
			.flatMap((w) => (w.startsWith("-") ? [w.slice(w.indexOf("=") + 1)] : [w]))
			.filter((w) => w.startsWith("/") && w !== "/dev/null")) {
			const problem = notSystemOwned(word);
			if (problem)
				throw installError(
					"usage",
					undefined,
					`--managed: the command must be at a system path only root can change, but ${problem}; copy the executable to e.g. /usr/local/bin and pass --command`,
				);
		}
	// The agent's environment is not the administrator's: the entry's shell removes what Bun acts on before
	// our code runs (BUN_*, MIMALLOC_*, NODE_PATH; src/agents/_shared/entry-shell.ts), as for every entry.
	return command ?? words.map(shellQuote).join(" ");
}

/** Refuses (one line) when this process may not write `file`: the managed paths need administrator rights. */
function assertWritable(file: string): void {
	let target = file;
	while (!statSync(target, { throwIfNoEntry: false }) && dirname(target) !== target) target = dirname(target);
	try {
		accessSync(target, constants.W_OK);
	} catch {
		throw installError("io", file, `${file} needs administrator rights: run it as root (e.g. with sudo); nothing was changed`);
	}
}

async function write(file: string, content: string): Promise<void> {
	try {
		await writeFileAtomic(file, content, { mode: 0o644 });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EACCES" || code === "EPERM" || code === "EROFS")
			throw installError("io", file, `${file} needs administrator rights: run it as root (e.g. with sudo)`);
		throw installError("io", file, `cannot write ${file}: ${(error as Error).message}`);
	}
}

/** Per file: the switch we set (`key`) and its value before (absent: it was not there), or that we created the file. */
type Record_ = Record<string, { key?: string; value?: unknown; created?: true; parentCreated?: true }>;

async function readRecord(): Promise<Record_> {
	try {
		const value = JSON.parse(await Bun.file(MANAGED_RECORD).text()) as unknown;
		return value && typeof value === "object" && !Array.isArray(value) ? (value as Record_) : {};
	} catch {
		return {};
	}
}

/** Drops `file` from the record (and the record itself once empty). */
async function forget(record: Record_, file: string): Promise<void> {
	delete record[file];
	if (Object.keys(record).length === 0) await rm(MANAGED_RECORD, { force: true });
	else await write(MANAGED_RECORD, `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Writes `agent`'s bridge entries into its managed configuration (Claude Code `managed-settings.json`,
 * Gemini CLI system settings, Cursor's enterprise `hooks.json`), editing the file's text like a user-level
 * install; with `onlyManaged`, also the agent's "managed hooks only" switch (Claude Code
 * `allowManagedHooksOnly`). Refuses an agent without a managed channel, a command not at a system path,
 * and (one line) a process that may not write the file.
 */
export async function installManaged(agent: Agent, options: ManagedOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const file = managedConfigFile(agent, options.platform);
	const managed = spec.managed as NonNullable<typeof spec.managed>;
	if (options.onlyManaged && !managed.onlyManagedKey)
		throw installError(
			"usage",
			file,
			`--only-managed: ${spec.label} has no "managed hooks only" switch${managed.userSwitchOff ? `, and ${managed.userSwitchOff}` : ""}; install without it`,
		);
	const command = bridgeCommand(agent, systemCommand(options.command), true);
	if (managed.format === "toml") return installToml(agent, file, command, options);
	if (spec.layout === "files") throw installError("usage", file, `--managed: ${spec.label} has no managed configuration for hooks`);
	const config = await readJsonFile(file);
	const blank = config.text === undefined || /^\uFEFF?[ \t\r\n]*$/.test(config.text);
	const doc = blank ? ConfigText.fresh(structuredClone(spec.base)) : new ConfigText(config.text as string);
	const changes = addEntries(doc, spec, command, file);
	const record = await readRecord();
	const key = managed.onlyManagedKey ?? managed.pin;
	let before: { value?: unknown; parentCreated?: true } | undefined;
	if (managed.pin) {
		const pinned = pinTrue(doc, managed.pin, file);
		if (pinned) {
			before = { ...pinned.before, ...(pinned.parentCreated ? { parentCreated: true as const } : {}) };
			changes.push({ action: "value" in pinned.before ? "update" : "add", event: managed.pin, command: "true" });
		}
	} else if (options.onlyManaged && key) {
		const member = memberOf(doc.root(), key);
		if (!member) {
			doc.append(doc.root(), true, key);
			before = {};
		} else if (doc.value(member.value) !== true) {
			before = { value: doc.value(member.value) };
			doc.replace(member.value, true);
		}
		if (before) changes.push({ action: member ? "update" : "add", event: key, command: "true" });
	}
	const shell = entryNoteFor(spec.events);
	const notes = [
		...(managed.notes ?? []),
		...(managed.userSwitchOff ? [`${spec.label}: ${managed.userSwitchOff}.`] : []),
		...(shell ? [shell] : []),
	];
	const result: InstallResult = { agent, scope: "managed", file, changes, written: false, notes };
	if (changes.length === 0) return result;
	result.content = doc.text;
	if (options.dryRun) return result;
	assertWritable(file);
	if (before && key && !record[file]) {
		record[file] = { key, ...before };
		await write(MANAGED_RECORD, `${JSON.stringify(record, null, 2)}\n`);
	}
	await write(file, result.content);
	result.written = true;
	return result;
}

/**
 * Removes exactly our entries from `agent`'s managed configuration, and puts the switch a managed
 * install set back as it was (removed when it was absent). A file left as the skeleton install writes is deleted.
 */
export async function uninstallManaged(agent: Agent, options: ManagedOptions = {}): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const file = managedConfigFile(agent, options.platform);
	if (spec.managed?.format === "toml") return uninstallToml(agent, file, options);
	const result: InstallResult = { agent, scope: "managed", file, changes: [], written: false, notes: [] };
	const config = await readJsonFile(file);
	if (!config.exists || config.text === undefined) return result;
	const doc = new ConfigText(config.text);
	result.changes = removeEntries(doc, spec, file);
	const record = await readRecord();
	const set = record[file]?.key ? (record[file] as { key: string; value?: unknown; parentCreated?: true }) : undefined;
	if (set?.key.includes(".")) {
		if (unpin(doc, set.key, set)) result.changes.push({ action: "remove", event: set.key, command: "true" });
	} else if (set) {
		const member = memberOf(doc.root(), set.key);
		if (member && doc.value(member.value) === true) {
			if ("value" in set) doc.replace(member.value, set.value);
			else doc.remove(doc.root(), doc.root().members?.indexOf(member) ?? -1);
			result.changes.push({ action: "remove", event: set.key, command: "true" });
		}
	}
	if (result.changes.length === 0) return result;
	const left = JSON.parse(doc.text.replace(/^\uFEFF/, "")) as Record<string, unknown>;
	const skeleton = Object.keys(left).every((k) => k in spec.base && JSON.stringify(left[k]) === JSON.stringify(spec.base[k]));
	if (skeleton) result.removeFile = true;
	else result.content = doc.text;
	if (options.dryRun) return result;
	assertWritable(file);
	if (result.removeFile) await rm(file);
	else await write(file, result.content as string);
	if (set) await forget(record, file);
	result.written = true;
	return result;
}

/** The text of a TOML config (empty when missing); refuses what is not a regular UTF-8 file. */
async function readText(file: string): Promise<string | undefined> {
	const info = statSync(file, { throwIfNoEntry: false });
	if (!info) return undefined;
	if (!info.isFile()) throw installError("not-a-file", file, `${file} is not a regular file; not changed`);
	try {
		return new TextDecoder("utf-8", { fatal: true }).decode(await Bun.file(file).arrayBuffer());
	} catch (error) {
		throw installError("parse", file, `${file} cannot be read as UTF-8 text (${(error as Error).message}); not changed`);
	}
}

async function installToml(agent: Agent, file: string, command: string, options: ManagedOptions): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const { addTomlEntries } = await import("./managed-toml.ts");
	const key = options.onlyManaged ? spec.managed?.onlyManagedKey : undefined;
	const before = await readText(file);
	const edit = addTomlEntries(before ?? "", spec, command, file, key);
	assertStillToml(before ?? "", edit.text, file, key, spec.managed?.alsoPin);
	const result: InstallResult = {
		agent,
		scope: "managed",
		file,
		changes: edit.changes,
		written: false,
		notes: [...(spec.managed?.notes ?? []), ...[entryNoteFor(spec.events)].filter((note) => note !== undefined)],
	};
	if (edit.changes.length === 0) return result;
	result.content = edit.text;
	if (options.dryRun) return result;
	assertWritable(file);
	if (before === undefined) {
		// So that uninstall deletes the file it leaves empty only when install created it.
		const record = await readRecord();
		record[file] = { created: true };
		await write(MANAGED_RECORD, `${JSON.stringify(record, null, 2)}\n`);
	}
	await write(file, edit.text);
	result.written = true;
	return result;
}

/**
 * Refuses an edit that would leave the agent without its requirements: text that parsed before and does
 * not after (say, the administrator's `[hooks]` table defines `PreToolUse` as a static array, to which our
 * `[[hooks.PreToolUse]]` cannot append), or a switch that does not read as `true` where the agent looks.
 */
function assertStillToml(before: string, after: string, file: string, key?: string, pin?: { table: string; key: string }): void {
	const parse = (text: string): Record<string, unknown> | undefined => {
		try {
			return Bun.TOML.parse(text) as Record<string, unknown>;
		} catch {
			return undefined;
		}
	};
	if (parse(before) === undefined) return; // a file our parser cannot read is the administrator's to judge
	const parsed = parse(after);
	const pinned = pin && (parsed?.[pin.table] as Record<string, unknown> | undefined)?.[pin.key];
	if (!parsed || (key && parsed[key] !== true) || (pin && pinned !== true))
		throw installError(
			"shape",
			file,
			`${file}: our entries cannot be added to it as it is (it would no longer be valid TOML, or the switch would not be set); not changed`,
		);
}

async function uninstallToml(agent: Agent, file: string, options: ManagedOptions): Promise<InstallResult> {
	const spec = agentSpec(agent);
	const { removeTomlEntries } = await import("./managed-toml.ts");
	const text = await readText(file);
	const result: InstallResult = { agent, scope: "managed", file, changes: [], written: false, notes: [] };
	if (text === undefined) return result;
	const edit = removeTomlEntries(text, spec);
	result.changes = edit.changes;
	if (edit.changes.length === 0) return result;
	const record = await readRecord();
	if (edit.text === "" && record[file]?.created) result.removeFile = true;
	else result.content = edit.text;
	if (options.dryRun) return result;
	assertWritable(file);
	if (result.removeFile) await rm(file);
	else await write(file, edit.text);
	if (record[file]) await forget(record, file);
	result.written = true;
	return result;
}
