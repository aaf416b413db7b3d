import { resolve } from "pathe";
import type { Agent } from "./agents.ts";
import { installError } from "./errors.ts";
import { INSTALL_MARKER, MANAGED_FLAG } from "./marker.ts";

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
 * runs in may execute before trust is decided, docs/contract.md#trust) and this checkout's `src/cli.ts`.
 */
export function defaultCommandPrefix(): string {
	return selfArgv().map(shellQuote).join(" ");
}

/** {@link defaultCommandPrefix} as an argv: how to run this very program again. */
export function selfArgv(): string[] {
	if (Bun.isStandaloneExecutable) return [process.execPath];
	return [process.execPath, "--no-env-file", "--config=/dev/null", CLI_SOURCE];
}

/**
 * The program a project's entries name: `xcsh-hooks`, found on PATH when the hook runs. A project's
 * config is committed and read on every teammate's machine, where the installer's absolute path means
 * nothing; the entry's shell says so clearly (and blocks a guarded call) when PATH has no `xcsh-hooks`
 * (src/agents/_shared/entry-shell.ts). User-level and managed entries keep {@link defaultCommandPrefix},
 * an absolute path: a user's config is read on that user's machine only, where the exact executable
 * install ran from is the one meant (and agents that start hooks with a short PATH still find it); a
 * managed entry must name a root-owned path, never whatever a user's PATH finds first.
 */
export const PATH_PROGRAM = "xcsh-hooks";

/**
 * The command an agent's entry runs: `<prefix> bridge <agent> --installed-by=xcsh-hooks`; `prefix` (from
 * `--command`) is used verbatim. The last argument marks the entry as ours ({@link isBridgeCommand}). A
 * managed entry also says `--managed` (before the marker): its call then denies a tool call when the
 * organisation's system hook folder fails its ownership check, where a user's entry only warns.
 */
export function bridgeCommand(agent: Agent, prefix?: string, managed = false): string {
	if (prefix !== undefined && !prefix.trim())
		throw installError("usage", undefined, "--command must not be empty; give the program to run, e.g. --command xcsh-hooks");
	return `${prefix?.trim() ?? defaultCommandPrefix()} bridge ${agent}${managed ? ` ${MANAGED_FLAG}` : ""} ${INSTALL_MARKER}`;
}
