import type { Node } from "web-tree-sitter";
import { isXcshError, XcshError } from "../errors.ts";
import type { Dirs, Var } from "./scope.ts";
import type { ShellCommand } from "./types.ts";

/*
 * What the analyzer (analyze.ts) and the reading of one command (commands.ts) share: the scope a
 * command runs in, what a command may ask of the analyzer, and how an analysis is refused.
 */

/**
 * Why the analyzer refused a command line: an `XcshError` `GUARD_UNREADABLE_COMMAND` whose `detail` is
 * the guard rule id it reports (`parse/error`, `input/too-deep`, `input/too-many`) and whose message is one line.
 */
export function unreadableCommand(rule: string, message: string): XcshError {
	return new XcshError("GUARD_UNREADABLE_COMMAND", message, { detail: rule });
}

/** Whether `error` is a refusal of {@link unreadableCommand}. */
export const isUnreadableCommand = (error: unknown): error is XcshError & { detail: string } =>
	isXcshError(error, "GUARD_UNREADABLE_COMMAND");

/** How many commands one command line may hold, all scripts it runs included. */
export const MAX_COMMANDS = 2_000;

/** What flows into a command: its wrappers, its standard input, the directories it may run in, the line's variables. */
export interface Scope {
	via: string[];
	stdin?: string | undefined;
	stdinUnknown: boolean;
	/** Shared along a list: `cd` moves it for what follows, inside this scope only. */
	dirs: Dirs;
	vars: Map<string, Var>;
	functions: Map<string, Node>;
	/** Inside a branch or loop: an assignment there may or may not happen. */
	conditional: boolean;
	home: string;
	scripts: number;
	calls: number;
	/** `NAME=value` words given to this command (`BASH_ENV=… bash`, `env BASH_ENV=… bash`). */
	assigned?: string[] | undefined;
}

/** What reading one command asks of the analyzer: the commands found so far, and walking what the command runs. */
export interface Analysis {
	readonly commands: ShellCommand[];
	/** Parses and walks a script the command runs (`bash -c`, `eval`, a piped script). */
	script(source: string, scope: Scope): void;
	/** What a script prints when that is plain from its text, `undefined` when not. */
	printedBy(source: string): string | undefined;
	walk(node: Node, scope: Scope, depth: number): void;
}
