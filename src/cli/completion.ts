import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { type CliCommand, cliError, EXIT_OK, defineCommand, printJson, writeOut } from "./_shared.ts";
import { TEMPLATE_NAMES } from "../templates/index.ts";

/** Shells `xcsh-hooks completion` writes a script for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;

/** One of {@link COMPLETION_SHELLS}. */
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** What a completion script knows about one command. */
interface CommandInfo {
	name: string;
	summary: string;
	options: Array<{ flags: string[]; description: string; takesValue: boolean; values?: readonly string[] }>;
	/** What the command's first argument can be (agents, events, tools…); files when absent. */
	words?: readonly string[] | undefined;
}

/** The names completion offers: arguments of commands (`install <agent>`) and option values (`--agent`). */
export interface CompletionValues {
	/** Command name → the words its first argument can be. */
	words: Record<string, readonly string[]>;
	/** `<command> --<option>` → the values of that option. */
	options: Record<string, readonly string[]>;
}

/**
 * What this program knows by name: agents (`install claude`), events (`emit tool_call`), built-in tools,
 * templates, shells and commands. Loaded only by `completion`, never on a hot path.
 */
export async function completionValues(commandNames: readonly string[]): Promise<CompletionValues> {
	const [{ bridgeNames }, { installableAgents }, { hookEventTypes }, { BUILTIN_TOOL_NAMES }, { TRUST_ACTIONS }] = await Promise.all([
		import("../agent-call/index.ts"),
		import("../install/index.ts"),
		import("../hooks/checks.ts"),
		import("../tools/builtin.ts"),
		import("./trust.ts"),
	]);
	const events = hookEventTypes();
	return {
		words: {
			install: installableAgents(),
			uninstall: installableAgents(),
			bridge: bridgeNames(),
			emit: events,
			schema: events,
			run: BUILTIN_TOOL_NAMES,
			trust: TRUST_ACTIONS,
			completion: COMPLETION_SHELLS,
			help: commandNames,
		},
		options: { "init --template": TEMPLATE_NAMES, "log --agent": ["cli", ...bridgeNames()] },
	};
}

/** Options every command that loads hooks takes before or after its name. */
const GLOBAL_VALUE_FLAGS = ["--cwd", "--hook", "--extension", "-e"];

function infoOf(name: string, command: CommandDef<ArgsDef>, known: CompletionValues): CommandInfo {
	const meta = typeof command.meta === "object" && !(command.meta instanceof Promise) ? command.meta : undefined;
	const args = (typeof command.args === "object" && !(command.args instanceof Promise) ? command.args : {}) as ArgsDef;
	const options: CommandInfo["options"] = [{ flags: ["--help", "-h"], description: "Show help", takesValue: false }];
	for (const [arg, def] of Object.entries(args) as Array<[string, ArgDef]>) {
		if (def.type === "positional") continue;
		const aliases = "alias" in def && def.alias ? ([] as string[]).concat(def.alias) : [];
		const flag = (n: string) => (n.length === 1 ? `-${n}` : `--${n}`);
		const negated = def.type === "boolean" && def.default === true;
		options.push({
			flags: negated ? [`--no-${arg}`] : [arg, ...aliases].map(flag),
			description: summaryOf(negated && "negativeDescription" in def ? def.negativeDescription : def.description),
			takesValue: def.type !== "boolean",
			...(def.type === "enum" && def.options ? { values: def.options } : {}),
			...(known.options[`${name} --${arg}`] ? { values: known.options[`${name} --${arg}`] } : {}),
		});
	}
	return { name, summary: meta?.description ?? "", options, words: known.words[name] };
}

/** The first sentence of an option's description: what a completion menu has room for. */
function summaryOf(description: string | undefined): string {
	const first = (description ?? "").split("\n", 1)[0] ?? "";
	return (/^(.*?[^.])\.(\s|$)/.exec(first)?.[1] ?? first).trim();
}

/**
 * A command with sub-commands (`guard explain`) as completion sees it: its first word is a sub-command's
 * name, and its options are those of its sub-commands.
 */
async function flattened(command: CliCommand): Promise<{ command: CliCommand; words?: string[] }> {
	const subs = command.subCommands as Record<string, CliCommand | (() => Promise<CliCommand>)> | undefined;
	if (!subs) return { command };
	const args: ArgsDef = {};
	for (const sub of Object.values(subs)) Object.assign(args, (typeof sub === "function" ? await sub() : sub).args);
	return { command: { ...command, args }, words: Object.keys(subs) };
}

/** `text` inside single quotes for sh, zsh and fish. */
const sq = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function bash(commands: CommandInfo[]): string {
	const cases = commands.map((c) => {
		const words = c.options.flatMap((o) => o.flags).join(" ");
		const enums = c.options
			.filter((o) => o.values)
			.map((o) => `\t\t\t${o.flags.join("|")}) COMPREPLY=($(compgen -W ${sq((o.values ?? []).join(" "))} -- "$cur")); return ;;`)
			.join("\n");
		const args = c.words ? `\n\t\t\t[[ $cur != -* ]] && COMPREPLY=($(compgen -W ${sq(c.words.join(" "))} -- "$cur"))` : "";
		return `\t\t${c.name})\n\t\t\tcase $prev in\n${enums}${enums ? "\n" : ""}\t\t\tesac\n\t\t\t[[ $cur == -* ]] && COMPREPLY=($(compgen -W ${sq(words)} -- "$cur"))${args} ;;`;
	});
	return `# xcsh-hooks completion for bash: eval "$(xcsh-hooks completion bash)" in ~/.bashrc
_xcsh_hooks() {
	local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd="" i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case \${COMP_WORDS[i]} in
			${GLOBAL_VALUE_FLAGS.join("|")}) ((i++)) ;;
			-*) ;;
			*) cmd=\${COMP_WORDS[i]}; break ;;
		esac
	done
	COMPREPLY=()
	case $cmd in
		"")
			if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '--cwd --hook --extension -e --no-discovery --json --help -h --version -v' -- "$cur"))
			else COMPREPLY=($(compgen -W ${sq([...commands.map((c) => c.name), "help"].join(" "))} -- "$cur")); fi ;;
${cases.join("\n")}
	esac
}
complete -o default -F _xcsh_hooks xcsh-hooks
`;
}

/** Text for zsh's `_describe`/`_arguments`: brackets and colons would end the field early. */
const zshText = (text: string) =>
	text
		.replace(/[[\]:\\]/g, " ")
		.replace(/\s+/g, " ")
		.trim();

function zsh(commands: CommandInfo[]): string {
	const list = commands.map((c) => `\t\t${sq(`${c.name}:${zshText(c.summary)}`)}`).join("\n");
	const cases = commands.map((c) => {
		const specs = c.options.flatMap((o) =>
			o.flags.map((f) => {
				const value = o.takesValue ? (o.values ? `:value:(${o.values.join(" ")})` : ":value:_files") : "";
				return sq(`${f}[${zshText(o.description)}]${value}`);
			}),
		);
		const rest = c.words ? sq(`1:argument:(${c.words.join(" ")})`) : "'*:file:_files'";
		return `\t\t${c.name}) _arguments ${[...specs, rest].join(" ")} ;;`;
	});
	return `#compdef xcsh-hooks
# xcsh-hooks completion for zsh: eval "$(xcsh-hooks completion zsh)" in ~/.zshrc (after compinit)
_xcsh_hooks() {
	local -a commands
	commands=(
${list}
	)
	local i cmd=""
	for ((i = 2; i < CURRENT; i++)); do
		case $words[i] in
			${GLOBAL_VALUE_FLAGS.join("|")}) ((i++)) ;;
			-*) ;;
			*) cmd=$words[i]; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		_describe command commands
		return
	fi
	case $cmd in
${cases.join("\n")}
	esac
}
compdef _xcsh_hooks xcsh-hooks
`;
}

function fish(commands: CommandInfo[]): string {
	const lines = [
		"# xcsh-hooks completion for fish: xcsh-hooks completion fish > ~/.config/fish/completions/xcsh-hooks.fish",
		"complete -c xcsh-hooks -f",
		...commands.map((c) => `complete -c xcsh-hooks -n __fish_use_subcommand -a ${c.name} -d ${sq(c.summary)}`),
		...commands
			.filter((c) => c.words)
			.map((c) => `complete -c xcsh-hooks -n '__fish_seen_subcommand_from ${c.name}' -a ${sq((c.words ?? []).join(" "))}`),
	];
	for (const c of commands) {
		for (const o of c.options) {
			const names = o.flags.map((f) => (f.startsWith("--") ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`)).join(" ");
			const value = o.takesValue ? (o.values ? ` -x -a ${sq(o.values.join(" "))}` : " -r -F") : "";
			lines.push(`complete -c xcsh-hooks -n '__fish_seen_subcommand_from ${c.name}' ${names}${value} -d ${sq(o.description)}`);
		}
	}
	return `${lines.join("\n")}\n`;
}

/** The completion script for `shell`, listing `commands` and each one's options. */
export function renderCompletion(
	shell: CompletionShell,
	commands: Array<[name: string, command: CommandDef<ArgsDef>]>,
	known: CompletionValues = { words: {}, options: {} },
): string {
	const infos = commands.map(([name, command]) => infoOf(name, command, known));
	return shell === "bash" ? bash(infos) : shell === "zsh" ? zsh(infos) : fish(infos);
}

/**
 * `xcsh-hooks completion bash|zsh|fish`: prints a script that completes commands and their options.
 * The command table that names this command hands it the list of every command (`commandList`) and
 * the `help` command, so
 * this file never imports the table (which would be an import circle).
 */
export const completionCommand = (commandList: () => Promise<Array<[string, CliCommand]>>, help: CliCommand) =>
	defineCommand({
		meta: {
			name: "completion",
			description: "Print a shell completion script (bash, zsh, fish)",
			details:
				'Print a shell completion script: eval "$(xcsh-hooks completion bash)" in ~/.bashrc, the same with zsh in ~/.zshrc, ' +
				"or xcsh-hooks completion fish > ~/.config/fish/completions/xcsh-hooks.fish",
		},
		args: {
			shell: { type: "positional", description: `Shell: ${COMPLETION_SHELLS.join(", ")}` },
			json: { type: "boolean", description: 'Print {"shell", "script"} as JSON' },
		},
		async run({ args }) {
			const shell = String(args.shell);
			if (!(COMPLETION_SHELLS as readonly string[]).includes(shell))
				throw cliError((await import("../suggest.ts")).unknownName("shell", shell, COMPLETION_SHELLS));
			const commands: Array<[string, CliCommand]> = [];
			const known = await completionValues([...(await commandList()).map(([name]) => name), "help"]);
			for (const [name, defined] of await commandList()) {
				const { command, words } = await flattened(defined);
				commands.push([name, command]);
				if (words) known.words[name] = words;
			}
			commands.push(["help", help]);
			const script = renderCompletion(shell as CompletionShell, commands as Array<[string, CommandDef<ArgsDef>]>, known);
			if (args.json) await printJson({ shell, script });
			else await writeOut(script);
			return EXIT_OK;
		},
	});
