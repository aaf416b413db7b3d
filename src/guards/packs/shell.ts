/** The `shell` pack (on by default): code the guard cannot see, so cannot clear. */
import { interpreterOf } from "../interpreters.ts";
import type { RulePack, ShellRule } from "../types.ts";

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"];

const SETUP_PRINTERS =
	/^\$\((?:ssh-agent|gpg-agent|keychain|direnv|brew|pyenv|rbenv|nodenv|jenv|goenv|conda|starship|zoxide|fnm|mise|rtx|asdf|opam|dircolors|luarocks|thefuck|nvm|volta|atuin|fzf|register-python-argcomplete|kubectl\s+completion|gh\s+completion)(?:\s[^()`;|&]*)?\)$/;

/** For rules that judge only shells, interpreters and what the analyzer reads into: lines naming those are always parsed. */
const ONLY_NAMED = /(?!)/;

const rules: ShellRule[] = [
	{
		id: "shell/computed-program",
		reason: "runs a program whose name is computed at run time, which cannot be checked",
		when: /[$`(]/,
		// `eval "$(ssh-agent -s)"` and its kind: tools whose whole job is printing shell set-up.
		test: (command) => command.computedProgram && !SETUP_PRINTERS.test(command.program),
	},
	{
		id: "shell/unseen-script",
		reason: "pipes output it cannot see into a shell or interpreter (like curl … | sh)",
		when: ONLY_NAMED,
		test(command) {
			if (!command.stdinUnknown) return false;
			const shell = SHELLS.includes(command.program);
			if (!shell && !interpreterOf(command.program)) return false;
			// A script named on the command line, or code given with -c/-e, is what runs; stdin is only data.
			const named = command.args.some((arg, i) => !/^[-+]/.test(arg) && !/^-[A-Za-z]*o$/.test(command.args[i - 1] ?? ""));
			const code = command.args.some((arg) => /^-[A-Za-z]*[cerE]$/.test(arg) || arg === "--eval");
			return (!named || command.args.includes("-")) && !code;
		},
	},
	{
		id: "shell/unreadable-code",
		reason: "runs code the guard cannot read",
		when: ONLY_NAMED,
		test(command) {
			if (command.unseen === undefined) return false;
			// `source <(kubectl completion bash)`: tools whose whole job is printing shell set-up.
			const sourced = /^(?:source|\.)$/.test(command.program) ? (command.args[0] ?? "").replace(/^<\(/, "$(") : "";
			return !SETUP_PRINTERS.test(sourced) && `runs code the guard cannot read (${command.unseen})`;
		},
	},
];

/** A computed program name (`$CMD`), and unseen output piped into a shell or interpreter. */
export const shellPack: RulePack = {
	name: "shell",
	description: "computed program names and unseen scripts piped into a shell (curl … | sh)",
	rules,
};
