import type { ArgsDef, CommandDef } from "citty";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "pathe";
import { isTerminal } from "../host/tty.ts";

/** Exit codes of the CLI (SPEC §10). */
export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_BLOCKED = 2;

/** An error the CLI reports as one clear line (no stack trace) with its exit code. */
export class CliError extends Error {
	constructor(
		message: string,
		readonly exitCode: number = EXIT_USAGE,
	) {
		super(message);
		this.name = "CliError";
	}
}

/**
 * citty's `defineCommand` (an identity function that types the definition), without loading citty
 * at run time: `main` parses arguments itself and loads citty only to render `--help`.
 */
export function defineCommand<const T extends ArgsDef = ArgsDef>(def: CommandDef<T>): CommandDef<T> {
	return def;
}

/** `--cwd` and `--json`: the project directory and machine-readable output. */
export const projectArgs = {
	cwd: { type: "string", description: "Project directory (default: the current directory)", valueHint: "dir" },
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

/** The `--hook`/`--extension`/`-e` paths, in order (the parser collects the repeated option). */
export function hookPaths(args: { hook?: unknown }): string[] {
	const value = args.hook;
	return value === undefined ? [] : ([] as string[]).concat(value as string | string[]);
}

/** Writes to stdout without touching `process.stdout` (its getter costs start-up time). */
export async function writeOut(text: string): Promise<void> {
	await Bun.write(Bun.stdout, text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes to stderr without touching `process.stderr`. */
export async function writeErr(text: string): Promise<void> {
	await Bun.write(Bun.stderr, text.endsWith("\n") ? text : `${text}\n`);
}

/** Prints a value as indented JSON. */
export function printJson(value: unknown): Promise<void> {
	return writeOut(JSON.stringify(value, null, 2));
}

/** Parses JSON from a flag or stdin, naming the source when it is not valid JSON. */
export function parseJson(text: string, source: string): unknown {
	if (!text.trim()) throw new CliError(`${source} is empty; expected a JSON object`);
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new CliError(`${source} is not valid JSON: ${(error as Error).message}`);
	}
}

/**
 * Reads all of stdin, or `undefined` when stdin is a terminal (nothing was piped). A synchronous read
 * of fd 0: setting up `Bun.stdin` costs more of the start-up than the read itself.
 */
export function readStdin(): string | undefined {
	if (isTerminal(0)) return undefined;
	try {
		return readFileSync(0, "utf8");
	} catch {
		return ""; // stdin closed: reported as empty by the caller
	}
}

/** The project directory from `--cwd`, checked to exist. */
export function projectDir(cwd: string | undefined): string {
	if (!cwd) return process.cwd();
	const dir = resolve(process.cwd(), cwd);
	if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`--cwd ${cwd}: no such directory`);
	return dir;
}
