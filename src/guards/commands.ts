/**
 * One simple command, unwrapped until what runs is plain: the runners of `runners.ts` (`sudo`,
 * `su -c`, `ssh host cmd`, `env -C`…), shells (`bash -c`, a script on stdin, `bash <(…)`),
 * `eval`, `source`, interpreter one-liners, `awk`/`sed`/`trap`/`coproc`, functions the line
 * defined, and `cd`/`pushd`/`popd`, which move the directory the rest of the line runs in.
 */
import { type Analysis, MAX_COMMANDS, type Scope, unreadableCommand } from "./analysis.ts";
import { embedded, embeds } from "./embedded.ts";
import { readArgs } from "./getopt.ts";
import { interpreterOf, oneLinerCode, scanCode } from "./interpreters.ts";
import { fullOptions } from "./program-options.ts";
import { type CwdChange, unwrap } from "./runners.ts";
import { cdTargets, copyDirs, type Dir, type Dirs, distinct, move, type Var } from "./scope.ts";
import { SHELLS, STDIN_FILES, shellInput } from "./shells.ts";
import type { EnvValue, ShellCommand } from "./types.ts";
import { programName, resolveFrom } from "./words.ts";

const UNSEEN_PIPE = "a script from a pipe it cannot see";
/** Builtins that set the variables they name. */
const SETS_VARIABLES = new Set([
	"read",
	"mapfile",
	"readarray",
	"printf",
	"getopts",
	"let",
	"declare",
	"typeset",
	"local",
	"export",
	"readonly",
]);
/** Runners after which the program still runs in this shell, so its `cd` moves the line. */
const IN_SHELL = new Set(["command", "builtin", "time", "exec"]);

/**
 * The variables a command may see (`ShellCommand.env`): those the line set (unexported ones too: a
 * guard errs on the side of seeing them) and `NAME=value` words given to it, later ones winning.
 * A value holding an expansion is `computed`.
 */
function visibleEnv(vars: ReadonlyMap<string, Var>, assigned: readonly string[]): Record<string, EnvValue> | undefined {
	if (vars.size === 0 && assigned.length === 0) return undefined;
	const env: Record<string, EnvValue> = {};
	for (const [name, value] of vars) env[name] = { value: value.text, computed: value.computed };
	for (const word of assigned) {
		const at = word.indexOf("=");
		if (at <= 0) continue;
		const value = word.slice(at + 1);
		env[word.slice(0, at)] = { value, computed: /[$`]/.test(value) };
	}
	return env;
}

/** Unwraps and records one command (argv), following what it runs. */
export function runCommand(
	analyzer: Analysis,
	argv: string[],
	computed: boolean[],
	start: Scope,
	redirects: ShellCommand["redirects"],
	depth: number,
): void {
	let scope = start;
	const via = [...scope.via];
	let assigned = scope.assigned ?? [];
	for (let rounds = 0; rounds < 32 && argv.length > 0; rounds++) {
		const computedProgram = computed[0] === true;
		const program = computedProgram ? (argv[0] as string) : programName(argv[0] as string);
		const args = fullOptions(program, argv.slice(1));
		const argsComputed = computed.slice(1);
		const here = scope;
		const env = visibleEnv(here.vars, assigned);
		const record = (extra: Partial<ShellCommand> = {}) => {
			for (const cwd of distinct([...here.dirs.now])) {
				if (analyzer.commands.length >= MAX_COMMANDS) throw unreadableCommand("input/too-many", "too many commands to check");
				analyzer.commands.push({
					program,
					args,
					computed: argsComputed,
					computedProgram,
					via,
					stdin: here.stdin,
					stdinUnknown: here.stdinUnknown,
					redirects,
					cwd,
					...(env ? { env } : {}),
					...extra,
				});
			}
		};
		// A script another process runs sees none of this shell's unexported variables.
		const inner = (label: string, extra: Partial<Scope> = {}): Scope => ({
			...here,
			via: [...via, label],
			assigned: undefined,
			vars: new Map(),
			...extra,
		});
		if (computedProgram) {
			record();
			return;
		}
		const body = scope.functions.get(program);
		if (body && scope.calls < 8) {
			record();
			analyzer.walk(body, { ...scope, via: [...via, `${program}()`], calls: scope.calls + 1 }, depth + 1);
			return;
		}
		if (program === "cd" || program === "pushd" || program === "popd" || program === "chdir") {
			record();
			changeDir(program, args, argsComputed, scope);
			return;
		}
		if (program === "eval") {
			record();
			analyzer.script(args.join(" "), inner("eval", { vars: scope.vars }));
			return;
		}
		if (program === "alias") {
			// `alias x='rm -rf /'`: what an alias stands for runs where it is used; judged where it is defined.
			record();
			for (const arg of args) if (arg.includes("=")) analyzer.script(arg.slice(arg.indexOf("=") + 1), inner("alias", { vars: scope.vars }));
			return;
		}
		if (SETS_VARIABLES.has(program)) {
			// `read d`, `mapfile d`, `printf -v d`, `getopts o d`: `d` now holds what only the run knows.
			for (const arg of args) if (/^[A-Za-z_]\w*$/.test(arg)) scope.vars.set(arg, { text: "", computed: true });
		}
		if (program === "source" || program === ".") {
			const fed = fedScript(analyzer, args[0], scope);
			record(fed.unseen ? { unseen: fed.unseen } : {});
			if (fed.script !== undefined)
				analyzer.script(fed.script, inner(program, { stdin: undefined, stdinUnknown: false, vars: scope.vars }));
			return;
		}
		if (program === "coproc") {
			// `coproc NAME { …; }` and `coproc cmd`: the parser splits the braces off; what is left runs.
			record();
			let rest = 0;
			if (args[1] === "{" || args[1] === "(") rest = 1;
			if (args[rest] === "{" || args[rest] === "(") rest++;
			argv = args.slice(rest);
			computed = argsComputed.slice(rest);
			via.push("coproc");
			continue;
		}
		if (SHELLS.has(program)) {
			shell(analyzer, program, args, argsComputed, { ...scope, via }, assigned, record);
			return;
		}
		if (embeds(program)) {
			const found = embedded(program, args);
			record(found?.unseen ? { unseen: found.unseen } : {});
			for (const line of found?.scripts ?? [])
				analyzer.script(
					line,
					inner(program === "trap" ? "trap" : `${program} code`, {
						stdin: undefined,
						stdinUnknown: false,
						...(program === "trap" ? { vars: scope.vars } : {}),
					}),
				);
			return;
		}
		// `bun x pkg` runs a package (the runner table), `bun -e` and `bun file` run code.
		const language = program === "bun" && args[0] === "x" ? undefined : interpreterOf(program);
		if (language) {
			const source = oneLinerCode(language, args);
			let code: string | undefined;
			let unseen: string | undefined;
			if (source.from === "code") code = source.code;
			else if (source.from === "stdin") {
				code = scope.stdin;
				if (scope.stdinUnknown) unseen = UNSEEN_PIPE;
			} else if (source.path.startsWith("<(")) ({ script: code, unseen } = fedScript(analyzer, source.path, scope));
			if (code === undefined) {
				record(unseen ? { unseen } : {});
				return;
			}
			const scanned = scanCode(language, code);
			const { deletes, shells } = scanned;
			unseen ??= scanned.unseen;
			record({ deletes, ...(unseen ? { unseen } : {}) });
			for (const line of shells) analyzer.script(line, inner(`${program} code`, { stdin: undefined, stdinUnknown: false }));
			return;
		}
		const step = unwrap(program, args, argsComputed);
		if (!step) {
			record();
			return;
		}
		const label = step.via;
		const moved =
			"cwd" in step && step.cwd !== undefined ? movedTo(step.cwd, scope) : IN_SHELL.has(program) ? scope.dirs : copyDirs(scope.dirs);
		if (step.kind === "unseen") {
			record({ unseen: step.what });
			return;
		}
		if (step.kind === "stdin") {
			record(scope.stdinUnknown ? { unseen: UNSEEN_PIPE } : {});
			const lines = (scope.stdin ?? "")
				.split("\n")
				.map(step.line)
				.filter((line) => line !== undefined);
			if (lines.length > 0) analyzer.script(lines.join("\n"), inner(label, { dirs: moved, stdin: undefined, stdinUnknown: false }));
			return;
		}
		if (step.kind === "script") {
			record();
			analyzer.script(step.script, inner(label, { dirs: moved, stdin: undefined, stdinUnknown: false }));
			return;
		}
		if (step.kind === "commands") {
			record();
			for (const next of step.commands) runCommand(analyzer, next.argv, next.computed, inner(label, { dirs: copyDirs(moved) }), [], depth);
			return;
		}
		via.push(label);
		if (step.assignments) assigned = [...assigned, ...step.assignments];
		scope = { ...scope, dirs: moved };
		argv = step.argv;
		computed = step.computed;
	}
}

/** The directories a runner's command runs in (`env -C dir`, `sudo -D dir`, `ssh`: unknown). */
function movedTo(change: CwdChange, scope: Scope): Dirs {
	if (change === "unknown") return { now: [undefined], failed: [], stack: [] };
	const now = change.computed ? [undefined] : distinct(scope.dirs.now.map((from) => resolveFrom(from, change.to, scope.home)));
	return { now, failed: [], stack: [] };
}

/** `cd`, `pushd`, `popd`: where the rest of the list runs. */
function changeDir(program: string, args: string[], computed: boolean[], scope: Scope): void {
	const { dirs, home } = scope;
	const read = readArgs({ short: "LPe@n" }, args);
	const at = read.operands[0];
	const target = at === undefined ? undefined : (args[at] as string);
	const isComputed = at !== undefined && computed[at] === true;
	const cdpath = scope.vars.get("CDPATH");
	if (program === "popd") {
		if (read.options.some((o) => o.name === "n") || /^[+-]\d+$/.test(target ?? "")) return;
		const top = dirs.stack.pop();
		move(dirs, () => top ?? [undefined]);
		return;
	}
	if (program === "pushd") {
		if (target === undefined || /^[+-]\d+$/.test(target)) {
			const top = target === undefined ? dirs.stack.pop() : undefined;
			const before = dirs.now;
			move(dirs, () => top ?? [undefined]);
			if (top) dirs.stack.push(before);
			return;
		}
		dirs.stack.push(dirs.now);
	}
	if (target === undefined) {
		move(dirs, () => [home]);
		return;
	}
	if (target === "-") {
		move(dirs, () => (isComputed ? [undefined] : (dirs.old ?? [undefined])));
		return;
	}
	move(dirs, (from: Dir) => cdTargets(from, target, isComputed, home, cdpath));
}

/** The script a file argument feeds (`<(echo …)`, `/dev/stdin`), or what cannot be read of it. */
function fedScript(
	analyzer: Analysis,
	path: string | undefined,
	scope: Scope,
): { script?: string | undefined; unseen?: string | undefined } {
	if (path === undefined) return {};
	if (/^[<>]\(/.test(path)) {
		const printed = analyzer.printedBy(path.slice(2, -1));
		return printed === undefined ? { unseen: "a script from a process substitution it cannot see" } : { script: printed };
	}
	if (STDIN_FILES.test(path) && path !== "-") {
		if (scope.stdin !== undefined) return { script: scope.stdin };
		return scope.stdinUnknown ? { unseen: UNSEEN_PIPE } : {};
	}
	return {};
}

/** `bash -c '…'`, `sh -s <<EOF`, `curl … | bash /dev/stdin`, `bash <(…)`, `BASH_ENV=<(…) bash`: what a shell runs. */
function shell(
	analyzer: Analysis,
	program: string,
	args: string[],
	computed: boolean[],
	scope: Scope,
	assigned: string[],
	record: (extra?: Partial<ShellCommand>) => void,
): void {
	const quiet = { stdin: undefined, stdinUnknown: false, assigned: undefined, vars: new Map<string, Var>() };
	const input = shellInput(program, args, computed);
	const startup = assigned.map((word) => /^(?:BASH_ENV|ENV)=(.*)$/s.exec(word)?.[1]).find((value) => value !== undefined);
	const sourced = startup === undefined ? {} : fedScript(analyzer, startup, scope);
	let fed: { script?: string | undefined; unseen?: string | undefined } = {};
	if (input.from === "stdin") fed = scope.stdin !== undefined ? { script: scope.stdin } : scope.stdinUnknown ? { unseen: UNSEEN_PIPE } : {};
	else if (input.from === "file") fed = fedScript(analyzer, input.path, scope);
	const unseen = sourced.unseen ?? fed.unseen;
	record(unseen ? { unseen } : {});
	if (sourced.script !== undefined) analyzer.script(sourced.script, { ...scope, via: [...scope.via, `${program} BASH_ENV`], ...quiet });
	if (input.from === "command" && input.script !== undefined)
		analyzer.script(input.script, { ...scope, via: [...scope.via, `${program} -c`], ...quiet });
	else if (fed.script !== undefined) analyzer.script(fed.script, { ...scope, via: [...scope.via, `${program} (stdin)`], ...quiet });
}
