import { XcshError } from "../../errors.ts";
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
 * Before that it looks the program up (`command -v`, a builtin): an entry `install --project` writes
 * names `xcsh-hooks` to be found on PATH (a committed config must work on a teammate's machine), so on
 * a machine without it the hook says exactly that and how to fix it — blocking, on a pre-tool event —
 * instead of a bare "not found".
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
 *
 * With `deadline` (seconds) the shell also ends a call still running then: SIGTERM (the bridge writes
 * its fail-closed answer), SIGKILL 3 s later (then `onFailure` runs). For agents that let the call run
 * when their own hook timeout passes, which an agent's timer may do while the bridge hangs before its
 * own deadline can fire. The timer is `sleep` from PATH, in a background subshell with no stdio (so it
 * never holds the agent's pipes open); without `sleep` there is no timer, never a deny of every call.
 * A call that ends before the subshell has set its trap (a bridge that could not start) leaves the
 * `sleep` to run out alone: its subshell is gone, so it signals nothing when it does.
 */
export function runOrElse(onFailure: string, deadline?: number): string {
	return [
		'exec 3<&0; "$@" <&3 3<&- & p=$!; exec 3<&-',
		...(deadline === undefined ? [] : [watchdog(deadline)]),
		'for g in TERM INT HUP QUIT; do trap "t=1; kill -s TERM $p 2>/dev/null" $g; done',
		"t=1; while [ $t = 1 ]; do t=0; wait $p; s=$?; done",
		...(deadline === undefined ? [] : ['[ -z "$w" ] || kill $w 2>/dev/null']),
		`[ $s = 0 ] && exit; ${onFailure}`,
	].join("; ");
}

/** The timer of {@link runOrElse}: `$w` is its pid, or empty without `sleep`. */
function watchdog(seconds: number): string {
	if (!Number.isInteger(seconds) || seconds <= 0)
		throw new XcshError("INVALID_OPTION", `entry deadline must be whole seconds > 0, got ${seconds}`);
	// Once fired, stopping the timer only ends it: `$q` is gone, and its pid may be another process's by then.
	const fire = 'trap "exit 0" TERM; kill -s TERM $p; sleep 3; kill -s KILL $p';
	return `w=; command -v sleep >/dev/null 2>&1 && { (sleep ${seconds} & q=$!; trap "kill $q; exit 0" TERM; wait $q && { ${fire}; }) >/dev/null 2>&1 & w=$!; }`;
}

/** The reason a blocked call gives (`$1` is the program, `$s` its exit status). */
export const NO_ANSWER = "xcsh-hooks: $1 ended without an answer (exit status $s); the tool call is blocked (fail closed)";

/** Whether an entry for `event` blocks when the bridge ends without an answer: the events that guard a call (the event table's `guard`). */
export const blocksWithoutAnswer = (event: AgentEvent): boolean => eventRule(event.xcsh)?.guard === true;

/** What a hook says when its program (`$1`) is not found: where it looked, and how to fix it. */
export const NOT_FOUND =
	"xcsh-hooks: $1 is not on the PATH this agent gives its hooks ($PATH); install xcsh-hooks so that it is on that PATH " +
	"(see docs/daily-loop.md), or install the entries again with --command naming its full path";

/**
 * Ends the hook with `onMissing` (after saying {@link NOT_FOUND}) when the program `$1`, a name looked up
 * on PATH, cannot be found. A path (`/opt/xcsh/xcsh-hooks`: user and managed entries) is run as it is: a
 * program gone from there ends without an answer, which {@link runOrElse} reports.
 */
export const requireProgram = (onMissing: string): string =>
	`case $1 in */*) ;; *) command -v "$1" >/dev/null 2>&1 || { echo "${NOT_FOUND}" >&2; ${onMissing}; };; esac`;

const EXEC_SCRIPT = `${CLEAN_ENV_SH}; ${requireProgram("exit 127")}; exec "$@"`;
const blockScript = (deadline?: number) =>
	`${CLEAN_ENV_SH}; ${requireProgram(`echo "xcsh-hooks: the tool call is blocked (fail closed)" >&2; exit 2`)}; ${runOrElse(`echo "${NO_ANSWER}" >&2; exit 2`, deadline)}`;

/**
 * The command line an entry runs: `/bin/sh -c '<script>' xcsh-hooks <command>`, `command` being the
 * bridge command (`<program> bridge <agent> --installed-by=xcsh-hooks`, which still ends the line, so
 * the entry is recognised as ours). Windows has no `/bin/sh`: there the command is left as it is.
 * `deadline` (a blocking entry only): seconds after which the call is ended and blocked (see {@link runOrElse}).
 */
export function entryCommand(command: string, block: boolean, deadline?: number): string {
	if (process.platform === "win32") return command;
	return `/bin/sh -c '${block ? blockScript(deadline) : EXEC_SCRIPT}' xcsh-hooks ${command}`;
}

/** {@link entryCommand} for one of `install`'s events; `deadline` applies to its blocking entries. */
export const eventCommand = (command: string, event: AgentEvent, deadline?: number): string =>
	entryCommand(command, blocksWithoutAnswer(event), deadline);

/** What `install` says about the entries it wrote (`events`: the agent's pre-tool events; `deadline`: see {@link runOrElse}). */
export function entryNote(events: readonly string[], deadline?: number): string | undefined {
	if (process.platform === "win32") return undefined;
	const ended = deadline === undefined ? "" : `, and one still running after ${deadline} s is ended and blocked`;
	const guarded =
		events.length > 0 ? `; on ${events.join(", ")} a call that ends without an answer exits 2, which blocks the tool call${ended}` : "";
	return `each entry runs the bridge through /bin/sh, which first removes BUN_*, MIMALLOC_* and NODE_PATH from the agent's environment (Bun acts on them before xcsh-hooks starts)${guarded}.`;
}

/** {@link entryNote} for an agent's install events. */
export const entryNoteFor = (events: readonly AgentEvent[], deadline?: number): string | undefined =>
	entryNote(
		events.filter(blocksWithoutAnswer).map((event) => event.name),
		deadline,
	);
