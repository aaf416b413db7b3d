import { resolve } from "pathe";
import { type Agent, isAgent } from "./agents.ts";
import { InstallError } from "./errors.ts";

/** `src/cli.ts` of this checkout: what a source install runs. */
const CLI_SOURCE = resolve(import.meta.dir, "..", "cli.ts");

/** Quotes one word for a POSIX shell when it needs it; plain paths stay bare (friendlier on Windows shells). */
export function shellQuote(word: string): string {
	if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The program part of the hook command: the compiled executable itself, or — running from source —
 * Bun with the project's `.env` and `bunfig.toml` switched off (nothing from the project the agent
 * runs in may execute before trust is decided, SPEC §10) and this checkout's `src/cli.ts`.
 */
export function defaultCommandPrefix(): string {
	return selfArgv().map(shellQuote).join(" ");
}

/** {@link defaultCommandPrefix} as an argv: how to run this very program again. */
export function selfArgv(): string[] {
	if (Bun.isStandaloneExecutable) return [process.execPath];
	return [process.execPath, "--no-env-file", "--config=/dev/null", CLI_SOURCE];
}

/** The command an agent's entry runs: `<prefix> bridge <agent>`; `prefix` (from `--command`) is used verbatim. */
export function bridgeCommand(agent: Agent, prefix?: string): string {
	if (prefix !== undefined && !prefix.trim())
		throw new InstallError("usage", undefined, "--command must not be empty; give the program to run, e.g. --command xcsh-hooks");
	return `${prefix?.trim() ?? defaultCommandPrefix()} bridge ${agent}`;
}

/**
 * Whether a command string is one of our entries: its last two words are `bridge <agent>`. That is the
 * calling convention of `xcsh-hooks bridge`, whatever the program in front (moved executable, source
 * checkout, `--command` override), so an install can update its own entry and an uninstall finds it.
 * Without `agent`: a bridge of any agent.
 */
export function isBridgeCommand(command: unknown, agent?: Agent): boolean {
	if (typeof command !== "string") return false;
	const named = BRIDGE_TAIL.exec(command)?.[1];
	return named !== undefined && (agent === undefined ? isAgent(named) : named === agent);
}

/** `… bridge <agent>` at the end of a command line (one expression for every agent). */
const BRIDGE_TAIL = /(?:^|\s)bridge\s+(\S+)\s*$/;
