import { isRecord } from "../_shared/answer.ts";

/**
 * Cline's `run_commands` input as the shell command lines it runs, for our `bash {command}`.
 *
 * Decision. Cline (cline/cline `RunCommandsInputUnionSchema` in sdk/packages/core/src/extensions/tools/
 * schemas.ts, read by `normalizeRunCommandsInput` in helpers.ts; the same in cli-v3.0.56 and main) takes,
 * the first that fits winning: `{commands: string[]}`, `{commands: (string | {command, args?})[]}`,
 * `{commands: string | {command, args?}}`, `[{command, args?}, …]`, `{command, args?}`, `{command}`,
 * `{cmd}`, `string[]`, `string` (other keys of an object are ignored). Every form here gives the lines of
 * the string list, so hooks see the same `bash` call (the lines joined by newlines, as before).
 *
 * A `{command, args}` entry (an `args` key, even `[]`) is spawned without a shell: `command` is the
 * executable, `args` its argv (executors/bash.ts). Cline's own display of it (`formatRunCommandQuery`)
 * is no shell line: it JSON-quotes only args holding whitespace or `"` and leaves `;`, `$`, `'`, `*` bare.
 * We write instead the POSIX shell line that runs that same argv: a plain word stays bare (so ordinary
 * argv, `rm -rf build`, reads exactly as Cline shows it), any other is single-quoted. A `{command}`
 * entry without `args` is a whole command line, which Cline gives to the shell, and so do we.
 *
 * An input none of these forms fits is one Cline refuses to run; it is never handed on unmapped: the
 * result is a reason naming what is wrong, and the bridge denies the call (fail closed).
 */
export function runCommandLines(input: unknown): { lines: string[] } | { problem: string } {
	if (isRecord(input)) {
		const commands = input.commands;
		if (Array.isArray(commands)) {
			const lines = commands.map(entryLine);
			if (allLines(lines)) return { lines };
		} else if (commands !== undefined) {
			const line = entryLine(commands);
			if (line !== undefined) return { lines: [line] };
		}
		// `{command, args?}`, then `{command}` (a bad `args` is dropped, as Cline's union does), then `{cmd}`.
		const line = argvLine(input) ?? stringOf(input.command) ?? stringOf(input.cmd);
		if (line !== undefined) return { lines: [line] };
	} else if (Array.isArray(input)) {
		const lines = input.map(argvLine);
		if (allLines(lines)) return { lines };
		if (input.every((c) => typeof c === "string")) return { lines: input };
	} else if (typeof input === "string") return { lines: [input] };
	return { problem: `run_commands input is not a form Cline runs: ${problemOf(input)}` };
}

/** Why `input` fits none of Cline's forms, naming the offending part. */
function problemOf(input: unknown): string {
	const entry = "a command string or {command: non-empty string, args?: string[]}";
	if (isRecord(input)) {
		const commands = input.commands;
		if (Array.isArray(commands)) {
			const bad = commands.findIndex((c) => entryLine(c) === undefined);
			return `commands[${bad}] is not ${entry} (got ${shown(commands[bad])})`;
		}
		if (commands !== undefined) return `commands is not a list, nor ${entry} (got ${shown(commands)})`;
		return `no commands, command or cmd field holds a command (got ${shown(input)})`;
	}
	if (Array.isArray(input)) {
		const bad = input.findIndex((c) => typeof c !== "string" && argvLine(c) === undefined);
		return bad >= 0
			? `item ${bad} of the list is not ${entry} (got ${shown(input[bad])})`
			: "a bare list must hold only command strings or only {command, args?} objects, not both";
	}
	return `expected {commands: [...]}, a list or a command string, got ${shown(input)}`;
}

/** One entry of `commands`: a command line, or `{command, args?}`; `undefined` for anything else. */
const entryLine = (entry: unknown): string | undefined => (typeof entry === "string" ? entry : argvLine(entry));

/**
 * Cline's `{command: non-empty string, args?: string[]}` as a shell line: without `args` the command line
 * itself (run by the shell), with `args` the argv it spawns, quoted.
 */
function argvLine(value: unknown): string | undefined {
	if (!isRecord(value) || typeof value.command !== "string" || value.command === "") return undefined;
	const args = value.args;
	if (args === undefined) return value.command;
	if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return undefined;
	// `=` in the first word would make it an assignment in a shell; Cline runs it as the executable.
	return [shellWord(value.command, PLAIN_COMMAND), ...args.map((a) => shellWord(a, PLAIN))].join(" ");
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;
const PLAIN_COMMAND = /^[A-Za-z0-9_@%+:,./-]+$/;

/** `word` as one shell word: bare when plain, else single-quoted. */
const shellWord = (word: string, plain: RegExp) => (plain.test(word) ? word : quoted(word));

/** A POSIX shell word holding `text` exactly. */
export const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

const stringOf = (value: unknown) => (typeof value === "string" ? value : undefined);
const allLines = (lines: Array<string | undefined>): lines is string[] => lines.every((l) => l !== undefined);

/** A short one-line rendering of a bad value for a reason. */
export function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
