import { eventRule } from "../../hooks/event-rules.ts";
import type { AgentEvent } from "./install-spec.ts";

/*
 * The shell around every command entry `install` writes. An agent runs its hooks with its own
 * environment, and a project can add to it (Claude Code's `env` in `.claude/settings.json`, Gemini
 * CLI's project `.env`). Bun acts on some variables before any of our code runs: a `BUN_JSC_*` option
 * or a `MIMALLOC_*` one can crash the executable (exit 1 or 134, no answer), `BUN_BE_BUN` turns it
 * into plain Bun, `BUN_OPTIONS=--preload=…` runs the project's code first, and `NODE_PATH` moves where
 * a hook's bare imports come from. So the entry is a POSIX `sh -c` that removes those families (no
 * fixed list can: `BUN_JSC_*` has hundreds of members) and then starts the bridge. On a pre-tool event
 * it also turns "ended without an answer" (a crash, a signal, a missing executable) into the blocking
 * exit code the agents share, 2 with a reason on stderr, where most of them would carry on.
 *
 * The command line is the same words in every shell an agent may hand it to (sh, bash, zsh, fish, csh:
 * Codex runs `$SHELL -lc`), and in none (an argv split): one single-quoted script with no `'`, `\`,
 * `!` or newline in it. It needs no PATH: everything it runs is a shell builtin.
 */

/** Whether a variable is one Bun reads before our code runs (see above); the extension of pi filters with it too. */
export const RUNTIME_VARIABLE = /^(BUN_|MIMALLOC_)|^NODE_PATH$/;

/**
 * Removes every exported `BUN_*`, `MIMALLOC_*` and `NODE_PATH`: names are split out of `export -p` at spaces (whatever IFS
 * the environment brought), and a word of a value that looks like a name no shell accepts is skipped (`command unset`
 * keeps dash from exiting on it).
 */
export const CLEAN_ENV_SH =
	// biome-ignore lint/suspicious/noTemplateCurlyInString: `${w%%=*}` is the shell's parameter expansion.
	'IFS=" "; set -f; for w in $(export -p); do case $w in BUN_*=*|MIMALLOC_*=*|NODE_PATH=*) command unset "${w%%=*}" 2>/dev/null;; esac; done; unset IFS';

/**
 * Runs `"$@"` and, unless it exits 0, runs `onFailure` with `$s` its exit status. The call runs in the
 * background (stdin handed over on fd 3: an asynchronous command would get /dev/null) so that a
 * signal the agent sends to end the hook reaches it as SIGTERM: the bridge then writes its own
 * fail-closed answer, and this shell waits for it.
 */
export function runOrElse(onFailure: string): string {
	return [
		'exec 3<&0; "$@" <&3 3<&- & p=$!; exec 3<&-',
		'for g in TERM INT HUP QUIT; do trap "t=1; kill -s TERM $p 2>/dev/null" $g; done',
		"t=1; while [ $t = 1 ]; do t=0; wait $p; s=$?; done",
		`[ $s = 0 ] && exit; ${onFailure}`,
	].join("; ");
}

/** The reason a blocked call gives (`$1` is the program, `$s` its exit status). */
export const NO_ANSWER = "xcsh-hooks: $1 ended without an answer (exit status $s); the tool call is blocked (fail closed)";

/** Whether an entry for `event` blocks when the bridge ends without an answer: the events that guard a call (the event table's `guard`). */
export const blocksWithoutAnswer = (event: AgentEvent): boolean => eventRule(event.xcsh)?.guard === true;

const SCRIPT = {
	exec: `${CLEAN_ENV_SH}; exec "$@"`,
	block: `${CLEAN_ENV_SH}; ${runOrElse(`echo "${NO_ANSWER}" >&2; exit 2`)}`,
};

/**
 * The command line an entry runs: `/bin/sh -c '<script>' xcsh-hooks <command>`, `command` being the
 * bridge command (`<program> bridge <agent> --installed-by=xcsh-hooks`, which still ends the line, so
 * the entry is recognised as ours). Windows has no `/bin/sh`: there the command is left as it is.
 */
export function entryCommand(command: string, block: boolean): string {
	if (process.platform === "win32") return command;
	return `/bin/sh -c '${block ? SCRIPT.block : SCRIPT.exec}' xcsh-hooks ${command}`;
}

/** {@link entryCommand} for one of `install`'s events. */
export const eventCommand = (command: string, event: AgentEvent): string => entryCommand(command, blocksWithoutAnswer(event));

/** What `install` says about the entries it wrote (`events`: the agent's pre-tool events). */
export function entryNote(events: readonly string[]): string | undefined {
	if (process.platform === "win32") return undefined;
	const guarded =
		events.length > 0 ? `; on ${events.join(", ")} a call that ends without an answer exits 2, which blocks the tool call` : "";
	return `each entry runs the bridge through /bin/sh, which first removes BUN_*, MIMALLOC_* and NODE_PATH from the agent's environment (Bun acts on them before xcsh-hooks starts)${guarded}.`;
}

/** {@link entryNote} for an agent's install events. */
export const entryNoteFor = (events: readonly AgentEvent[]): string | undefined =>
	entryNote(events.filter(blocksWithoutAnswer).map((event) => event.name));
