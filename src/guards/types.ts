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

/** A rule: which commands it blocks and why, in one line. */
export interface ShellRule {
	/** `pack/name`, e.g. `git/reset-hard`; what `disable` and `explain` name. */
	id: string;
	/** One line shown to the user and the agent when the rule blocks. */
	reason: string;
	/** The programs it judges (after unwrapping); every command when omitted. */
	programs?: readonly string[];
	/**
	 * For a rule without `programs`: text the raw command line must contain for the rule to match at
	 * all, so a line without it needs no parse. A guard with a rule that has neither parses every line.
	 */
	when?: RegExp;
	/** `true` (or a more precise one-line reason) to block this command. */
	test(command: ShellCommand, context: RuleContext): boolean | string | undefined;
}

/** A named set of rules a hook switches on or off as one. */
export interface RulePack {
	name: string;
	/** One line for `explain` and the README. */
	description: string;
	rules: readonly ShellRule[];
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
