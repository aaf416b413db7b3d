import { XcshError } from "../errors.ts";
import type { ArgsDef, CommandDef, CommandMeta } from "citty";
import { statSync, writeSync } from "node:fs";
import { resolve } from "pathe";
import { writeOrDrop, writeOrDropSync } from "../process/closed-pipe.ts";
import { protocolFd } from "../process/stdout.ts";
import { readStdinBytes } from "../process/stdin.ts";
import { decodeUtf8, parseJsonText } from "../json.ts";
import { aroundStdoutWrite } from "../ui/stdout-guard.ts";

/** Exit codes of the CLI (docs/contract.md#exit-codes). */
export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_BLOCKED = 2;

/**
 * An error the CLI reports as one clear line (no stack trace) with its exit code: an `XcshError`
 * `USAGE` (a command called wrongly, exit 1) or, with another exit code, `COMMAND_FAILED`.
 */
export function cliError(message: string, exitCode: number = EXIT_USAGE): XcshError {
	return new XcshError(exitCode === EXIT_USAGE ? "USAGE" : "COMMAND_FAILED", message, { exitCode });
}

/**
 * What a command says about itself: `description` is its one-line summary (the command list in
 * `xcsh-hooks --help`, completion and docs/cli.md show it; short enough for 80 columns next to the
 * name), `details` the longer text its own `--help` shows under it.
 */
export interface CliMeta extends CommandMeta {
	name: string;
	description: string;
	details?: string;
}

/** A command as the CLI defines it: a citty command whose `meta` is a plain {@link CliMeta}. */
export type CliCommand<T extends ArgsDef = ArgsDef> = Omit<CommandDef<T>, "meta"> & { meta: CliMeta };

/**
 * citty's `defineCommand` (an identity function that types the definition), here so that defining a
 * command never loads citty: `emit` and `bridge` run on an agent's hot path without it (src/cli/main.ts).
 */
export function defineCommand<const T extends ArgsDef = ArgsDef>(def: CliCommand<T>): CliCommand<T> {
	return def;
}

/** `--cwd` and `--json`: the project directory and machine-readable output. */
export const projectArgs = {
	cwd: {
		type: "string",
		description: "A folder of the project (default: the current directory); the project is found from it",
		valueHint: "dir",
	},
	json: { type: "boolean", description: "Print machine-readable JSON" },
} as const satisfies ArgsDef;

/** The flags of every command that loads hooks; `--hook` is repeatable (read it with {@link hookPaths}). */
export const globalArgs = {
	...projectArgs,
	hook: {
		type: "string",
		alias: ["extension", "e"],
		description: "Load this hook file too (repeatable; --extension and -e are aliases)",
		valueHint: "path",
	},
	discovery: {
		type: "boolean",
		default: true,
		description: "Discover hooks in .xcsh, .claude, .codex and the user directory",
		negativeDescription: "Only load the hooks given with --hook",
	},
} as const satisfies ArgsDef;

/**
 * {@link globalArgs} without `--json`, for the commands whose output has one format of its own:
 * `serve` (its protocol), `bridge` (the agent's), `test` (bun:test's report). There `--json` is an
 * unknown option rather than a flag that changes nothing.
 */
export const hookArgs = (({ json: _json, ...rest }) => rest)(globalArgs);

/** The `--hook`/`--extension`/`-e` paths, in order (the parser collects the repeated option). */
export function hookPaths(args: { hook?: unknown }): string[] {
	const value = args.hook;
	return value === undefined ? [] : ([] as string[]).concat(value as string | string[]);
}

/**
 * Writes to stdout without touching `process.stdout` (its getter costs start-up time). After
 * {@link claimStdout} this is the only way to the real stdout: hooks' writes to fd 1 go to stderr.
 * A reader that went away (EPIPE) is no error: the output is dropped (src/process/closed-pipe.ts).
 */
export async function writeOut(text: string): Promise<void> {
	await writeOutExactly(text.endsWith("\n") ? text : `${text}\n`);
}

/** {@link writeOut} without the trailing newline it adds: `text` byte for byte. */
export async function writeOutExactly(text: string): Promise<void> {
	const fd = protocolFd();
	await aroundStdoutWrite(async () => {
		if (fd === undefined) await writeOrDrop(1, () => Bun.write(Bun.stdout, text));
		else writeAll(fd, text);
	});
}

/**
 * Writes all of `text` to stdout's descriptor `fd` (1, or the protocol's) synchronously (a pipe may take
 * it in several writes); dropped once the reader went away.
 */
export function writeAll(fd: number, text: string): void {
	const bytes = Buffer.from(text, "utf8");
	writeOrDropSync(1, () => {
		for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset);
	});
}

/** Writes to stderr without touching `process.stderr` (nothing when its reader went away). */
export async function writeErr(text: string): Promise<void> {
	await writeOrDrop(2, () => Bun.write(Bun.stderr, text.endsWith("\n") ? text : `${text}\n`));
}

/** Prints a value as indented JSON (see {@link toJson}). */
export function printJson(value: unknown): Promise<void> {
	return writeOut(toJson(value, 2));
}

/**
 * JSON of a value that may hold what hooks returned: a BigInt becomes its decimal string and a cycle
 * `"[Circular]"`, so printing an answer never fails.
 */
export function toJson(value: unknown, indent?: number): string {
	try {
		return JSON.stringify(value, null, indent);
	} catch {
		const seen = new WeakSet<object>();
		return JSON.stringify(
			value,
			(_key, v: unknown) => {
				if (typeof v === "bigint") return v.toString();
				if (v !== null && typeof v === "object") {
					if (seen.has(v)) return "[Circular]";
					seen.add(v);
				}
				return v;
			},
			indent,
		);
	}
}

/** Parses JSON from a flag or stdin, naming the source when it is not valid JSON or nested too deep. */
export function parseJson(text: string, source: string): unknown {
	if (!text.trim()) throw cliError(`${source} is empty; expected a JSON object`);
	try {
		return parseJsonText(text, source);
	} catch (error) {
		throw cliError((error as Error).message);
	}
}

/**
 * Reads all of stdin, or `undefined` when stdin is a terminal (nothing was piped). A synchronous read
 * of fd 0: setting up `Bun.stdin` costs more of the start-up than the read itself.
 */
export function readStdin(): string | undefined {
	try {
		const bytes = readStdinBytes();
		return bytes === undefined ? undefined : decodeUtf8(bytes, "stdin");
	} catch (error) {
		throw cliError((error as Error).message);
	}
}

/**
 * The folder from `--cwd` (default: the current directory), checked to exist: what hooks see as
 * `ctx.cwd`. Discovery, trust and settings find its project from it (src/discovery/project.ts).
 */
export function projectDir(cwd: string | undefined): string {
	if (!cwd) return process.cwd();
	const dir = resolve(process.cwd(), cwd);
	let info: ReturnType<typeof statSync>;
	try {
		info = statSync(dir);
	} catch {
		throw cliError(`--cwd ${cwd}: no such directory`);
	}
	if (!info.isDirectory()) throw cliError(`--cwd ${cwd}: not a directory`);
	return dir;
}
