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
	 * Code it runs that the guard cannot read, in a few words (`a script from a pipe it cannot see`
	 * for `curl … | bash /dev/stdin`, `bash <(curl …)`, `sed s///e`); the `shell` pack refuses it.
	 */
	unseen?: string | undefined;
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
	/** Whether it deletes a whole tree (`shutil.rmtree`, `rm_rf`, `rmSync(…, {recursive})`), or may (an aliased call). */
	recursive?: boolean | undefined;
}

/** What a rule may ask about the command line it judges. */
export interface RuleContext {
	/** The directory the command runs in (`cd` followed), `undefined` when computed. */
	cwd: string | undefined;
	/** The user's home directory. */
	home: string;
	/** The directory the command line starts in (the agent's working directory, normally the project root). */
	project?: string | undefined;
	/** An argument as an absolute path (`~`, `$HOME`, `$TMPDIR` and `..` resolved), `undefined` when computed. */
	resolve(path: string): string | undefined;
	/** Whether a path lies strictly inside a temporary directory (`/tmp`, `/var/tmp`, `$TMPDIR`), and is neither the project nor home nor holds them. */
	isTemp(path: string): boolean;
	/** Whether a path is one the hook allowed (`allowPaths`), or inside one. */
	isAllowed(path: string): boolean;
}

/** The three answers about a command line: it may run, a person must say yes first, or it may not run. */
export type ShellVerdict = "block" | "ask" | "allow";

/** A rule's answer when it wants another verdict than its own for this command: `{ verdict: "ask", reason }`. */
export interface RuleAnswer {
	/** `"ask"`: a person may allow it; anything else blocks. */
	verdict: "block" | "ask";
	/** One line; the rule's own `reason` when omitted. */
	reason?: string | undefined;
}

/** A rule: which commands it blocks (or asks about) and why, in one line. */
export interface ShellRule {
	/** `pack/name`, e.g. `git/reset-hard`; what `disable`, `verdicts` and `explain` name. */
	id: string;
	/** One line shown to the user and the agent when the rule blocks. */
	reason: string;
	/** The programs it judges (after unwrapping); every command when omitted. */
	programs?: readonly string[];
	/** What a match answers (`true` or a string from `test`): `"block"` (default) or `"ask"`. */
	verdict?: "block" | "ask";
	/**
	 * For a rule without `programs`: text the raw command line must contain for the rule to match at
	 * all, so a line without it needs no parse. A guard with a rule that has neither parses every line.
	 */
	when?: RegExp;
	/**
	 * `true` (or a more precise one-line reason) when the command matches: the rule's `verdict` applies;
	 * a {@link RuleAnswer} to answer otherwise for this command (e.g. ask about a force push to a feature branch).
	 */
	test(command: ShellCommand, context: RuleContext): boolean | string | RuleAnswer | undefined;
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
	/**
	 * `true` unless the command may run unasked: an ask is `block: true` too, so code that reads only
	 * `block` never lets an ask through.
	 */
	block: boolean;
	/**
	 * Block, ask or allow. Over the commands of a line, block beats ask beats allow: one command a rule
	 * blocks blocks the line; else one a rule asks about makes it an ask.
	 */
	verdict: ShellVerdict;
	/** One line: why it is blocked or asked about. */
	reason?: string;
	/** The id of the rule that decided (`parse/error` and `input/*` for what the analyzer refused). */
	rule?: string;
	/** Every simple command the analyzer saw, after unwrapping. */
	commands: ShellCommand[];
}

/** One rule that matched one command of the line. */
export interface RuleMatch {
	rule: string;
	verdict: "block" | "ask";
	reason: string;
	/** The index of the command in `commands`; absent for what the analyzer refused (`parse/error`, `input/*`). */
	command?: number;
}

/** The guard that judged, as `explain` shows it: what it runs and what it leaves alone. */
export interface ShellGuardSummary {
	/** Pack names (a pack of your own by its `name`), switched-off ones left out. */
	packs: string[];
	/** Pack names and rule ids switched off. */
	disable: string[];
	allowPaths: string[];
	/** The ids of the hook's own rules. */
	rules: string[];
	/** Verdicts changed by the hook, by pack name or rule id. */
	verdicts: Record<string, "block" | "ask">;
	/** The tools whose `command` its handler checks. */
	tools: string[];
	onParseError: "block" | "allow";
}

/**
 * What `explain` tells about one command line: the decision (every field of {@link ShellDecision},
 * each command with every field the analyzer gave it), where it was judged, every rule that matched,
 * and the guard that judged.
 */
export interface ShellExplanation extends ShellDecision {
	/** The command line as given. */
	line: string;
	/** The directory the line starts in; each command's own `cwd` follows `cd` from there. */
	cwd: string;
	/** Every rule that matched, in the order tried; the deciding one is the first block, else the first ask. */
	matches: RuleMatch[];
	guard: ShellGuardSummary;
}
