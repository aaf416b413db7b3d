/** One simple command as it will run, after the analyzer unwrapped what runs it. */
export interface ShellCommand {
	/** The program, normalised: `/usr/bin/git` and `\git` are `git`. */
	program: string;
	/** The arguments after the program, quotes removed; an expansion keeps its text (`$HOME/x`). */
	args: string[];
	/** Per argument, whether its value is only known at run time (`$X`, `$(…)`, `*` aside). */
	computed: boolean[];
	/** Whether the program name itself is computed (`$CMD`, `$(…)`). */
	computedProgram: boolean;
	/** What runs it, outermost first: `["sudo", "bash -c"]`. */
	via: string[];
	/** Text fed on its standard input when known (heredoc, here-string, `echo … |`). */
	stdin?: string | undefined;
	/** Whether its standard input comes from a command whose output cannot be known. */
	stdinUnknown: boolean;
	/** Output redirections, operator and target: `{ op: ">", target: "/dev/sda" }`. */
	redirects: Array<{ op: string; target: string }>;
	/** For an interpreter one-liner (`python -c`, `node -e`…): the file-deleting calls found in its code. */
	deletes?: CodeDelete[];
	/** The directory it runs in, `cd` followed; `undefined` when that is computed (`cd "$X"`). */
	cwd: string | undefined;
	/**
	 * Variables the line sets that this command may see: `A=1 cmd`, `env A=1 cmd`, and `A=1` or
	 * `export A=1` earlier in the same shell. A value known only at run time is marked `computed`.
	 */
	env?: Readonly<Record<string, EnvValue>>;
}

/** A variable's value as the line sets it. */
export interface EnvValue {
	value: string;
	computed: boolean;
}

/** A file-deleting call in interpreter code: `shutil.rmtree('/')` has the target `/`. */
export interface CodeDelete {
	call: string;
	/** Its first argument when that is a string literal. */
	target?: string | undefined;
}

/** What a rule may ask about the command line it judges. */
export interface RuleContext {
	/** The directory the command runs in (`cd` followed), `undefined` when computed. */
	cwd: string | undefined;
	/** The user's home directory. */
	home: string;
	/** An argument as an absolute path (`~`, `$HOME`, `$TMPDIR` and `..` resolved), `undefined` when computed. */
	resolve(path: string): string | undefined;
	/** Whether a path lies strictly inside a temporary directory (`/tmp`, `/var/tmp`, `$TMPDIR`), and is neither the project nor home nor holds them. */
	isTemp(path: string): boolean;
	/** Whether a path is one the hook allowed (`allowPaths`), or inside one. */
	isAllowed(path: string): boolean;
	/** The project: the directory the guard was asked about (`decide`'s `cwd`), before any `cd`. */
	project?: string;
}

/** A rule: which commands it blocks and why, in one line. */
export interface ShellRule {
	/** `pack/name`, e.g. `git/reset-hard`; what `disable` and `explain` name. */
	id: string;
	/** One line shown to the user and the agent when the rule blocks. */
	reason: string;
	/** The programs it judges (after unwrapping); every command when omitted. */
	programs?: readonly string[];
	/** `true` (or a more precise one-line reason) to block this command. */
	test(command: ShellCommand, context: RuleContext): boolean | string | undefined;
}

/** A command line (or an argv) a command runs that the analyzer does not unwrap itself: a git `!alias`, `rebase --exec`. */
export type NestedRun = { via: string; script: string } | { via: string; argv: string[] };

/** A named set of rules a hook switches on or off as one. */
export interface RulePack {
	name: string;
	/** One line for `explain` and the README. */
	description: string;
	rules: readonly ShellRule[];
	/** What the pack guards against, one item a line (data for the docs). */
	protects?: readonly string[];
	/** What it deliberately lets through, and why, one item a line (data for the docs). */
	leavesAlone?: readonly string[];
	/**
	 * The command lines a command runs that only this pack knows how to read (a git alias that
	 * starts with `!`, `git rebase --exec`): the guard analyzes each and judges what it runs too.
	 */
	nested?(command: ShellCommand, context: RuleContext): readonly NestedRun[] | undefined;
}

/** What the guard decided about one command line. */
export interface ShellDecision {
	block: boolean;
	/** One line: why it is blocked. */
	reason?: string;
	/** The id of the rule that decided (`parse/error` and `input/*` for what the analyzer refused). */
	rule?: string;
	/** Every simple command the analyzer saw, after unwrapping. */
	commands: ShellCommand[];
}
