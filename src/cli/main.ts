import { isXcshError } from "../errors.ts";
import type { ArgsDef, CittyPlugin, CommandDef } from "citty";
import { errorMessage } from "../hooks/_describe.ts";
import { type ParsedArgs, parseArgs } from "./_args.ts";
import { type CliCommand, type CliMeta, cliError, EXIT_OK, EXIT_USAGE, globalArgs, writeErr, writeOut } from "./_shared.ts";
import { PACKAGE_VERSION, versionLine } from "./version.ts";

/*
 * The CLI is one citty command, `ROOT`, whose sub-commands are loaded on first use; each command is a
 * citty definition in its own file, with its summary in `meta.description` and its longer help in
 * `meta.details`. citty runs every command (`runCommand`: setup, run, cleanup) and renders every help
 * (`renderUsage`, fitted to 80 columns in help.ts). What citty does not do, `main` does around it:
 *
 * - exit codes: citty's `runMain` ends the process itself (exit 1 on any error, after printing the
 *   usage and the error with console.error), and `runCommand` drops what a sub-command's `run` returns.
 *   `main` finds the command at the end of the path (`guard explain`) and runs that one with
 *   `runCommand`, so its result is the exit code; an error is one line on stderr.
 * - did-you-mean: citty says "Unknown command" for a typo; `main` names the nearest command or action.
 * - strict options: citty's parser (node:util's parseArgs with `strict: false`) ignores an unknown
 *   option, keeps the last of a repeated one (`--hook a --hook b`) and lifts `--dry-run` out of
 *   `command deploy --dry-run`. `_args.ts` parses first, refusing what is unknown (with the nearest
 *   option), and its values are the ones the command sees (a citty plugin sets them).
 * - global options before the command name (`xcsh-hooks --cwd app list`), which citty would drop.
 * - the hot path: `emit` and `bridge` (what agents call) never load citty: its parser loads node:util,
 *   a cost on every call (docs/performance.md). Their arguments are parsed by `_args.ts` alone.
 */

/** A command module, loaded lazily: `emit` on the hot path never evaluates `init`, `demo`, citty or consola. */
type Loader = () => Promise<CliCommand>;

const subCommands = {
	init: () => import("./init.ts").then((m) => m.initCommand),
	types: () => import("./types.ts").then((m) => m.typesCommand),
	list: () => import("./list.ts").then((m) => m.listCommand),
	check: () => import("./check.ts").then((m) => m.checkCommand),
	emit: () => import("./emit.ts").then((m) => m.emitCommand),
	run: () => import("./run.ts").then((m) => m.runToolCommand),
	command: () => import("./command.ts").then((m) => m.commandCommand),
	schema: () => import("./schema.ts").then((m) => m.schemaCommand),
	trust: () => import("./trust.ts").then((m) => m.trustCommand),
	demo: () => import("./demo.ts").then((m) => m.demoCommand),
	serve: () => import("./serve.ts").then((m) => m.serveCommand),
	bridge: () => import("./bridge.ts").then((m) => m.bridgeCommand),
	install: () => import("./install.ts").then((m) => m.installCommand),
	uninstall: () => import("./uninstall.ts").then((m) => m.uninstallCommand),
	log: () => import("./log.ts").then((m) => m.logCommand),
	guard: () => import("./guard.ts").then((m) => m.guardCommand),
	test: () => import("./test.ts").then((m) => m.testCommand),
	version: () => import("./version.ts").then((m) => m.versionCommand),
	completion: () => import("./completion.ts").then((m) => m.completionCommand(commandList, HELP_COMMAND)),
} as Record<string, Loader>;

/** `xcsh-hooks help [command…]` as a command of its own, so `help help` has something to show. */
const HELP_COMMAND: CliCommand = {
	meta: {
		name: "help",
		description: "Show the help of a command",
		details:
			"Show the help of a command (`help guard explain` for a sub-command), or with no command the list of commands, as --help does.",
	},
	args: { command: { type: "positional", required: false, description: "A command's name" } },
};

/** The program: its summary, the options every command that loads hooks takes, and its commands. */
export const ROOT: CliCommand = {
	meta: { name: "xcsh-hooks", version: PACKAGE_VERSION, description: "Typed AI-agent hooks: scaffold, inspect, run and serve them" },
	args: {
		...globalArgs,
		version: { type: "boolean", alias: ["v"], description: "Show the version of xcsh-hooks and of the Bun inside" },
		help: { type: "boolean", alias: ["h"], description: "Show help (xcsh-hooks help <command> for one command)" },
	},
	subCommands: { ...subCommands, help: async () => HELP_COMMAND },
};

/** Commands an agent runs on every tool call: their arguments are parsed without citty (see above). */
const HOT = new Set(["emit", "bridge"]);

/** Commands whose trailing arguments are passed on verbatim: `command deploy --dry-run`. */
const REST_AFTER: Partial<Record<string, number>> = { command: 1 };

const isName = (value: string | undefined): value is string => value !== undefined && Object.hasOwn(subCommands, value);

/** The options of `args` that take a value (`--cwd dir`, `-e path`): the word after one is no command name. */
function valueFlags(args: ArgsDef): Set<string> {
	const flags = new Set<string>();
	for (const [name, def] of Object.entries(args)) {
		if (def.type !== "string" && def.type !== "enum") continue;
		for (const n of [name, ...("alias" in def && def.alias ? ([] as string[]).concat(def.alias) : [])])
			flags.add(n.length === 1 ? `-${n}` : `--${n}`);
	}
	return flags;
}

const GLOBAL_VALUE_FLAGS = valueFlags(globalArgs);

/** Where the first positional argument is (skipping options and their values), before any `--`; -1 when none. */
function firstPositional(args: readonly string[], values: Set<string>): number {
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") return -1;
		if (values.has(arg)) i++;
		else if (!arg.startsWith("-")) return i;
	}
	return -1;
}

/**
 * Whether `--help`/`-h` is one of our own flags: before `--`, and for a command that passes its
 * trailing arguments on (`command deploy --help`), before those.
 */
function asksForHelp(args: readonly string[], values: Set<string>, restAfter?: number): boolean {
	let positionals = 0;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") return false;
		if (arg === "--help" || arg === "-h") return true;
		if (values.has(arg)) i++;
		else if (!arg.startsWith("-") && restAfter !== undefined && ++positionals >= restAfter) return false;
	}
	return false;
}

/** Every command with its definition, in the order of the root help (for completion and docs/cli.md). */
export async function commandList(): Promise<Array<[string, CliCommand]>> {
	return Promise.all(Object.entries(subCommands).map(async ([name, load]): Promise<[string, CliCommand]> => [name, await load()]));
}

/** The sub-commands of `command` (a plain record of definitions or loaders), or undefined. */
const subsOf = (command: CliCommand) => command.subCommands as Record<string, CliCommand | Loader> | undefined;

/** A sub-command's definition, loading it when it is given as a loader. */
const loaded = async (sub: CliCommand | Loader | undefined): Promise<CliCommand> =>
	typeof sub === "function" ? sub() : (sub as CliCommand);

/** Prints the help of the command at `path` (the root with `[]`). */
async function showHelp(path: readonly string[], command: CliCommand = ROOT): Promise<void> {
	const { renderHelp } = await import("./help.ts");
	await writeOut(await renderHelp(path, command, ROOT.meta as CliMeta));
}

/** `unknown command "instal" (did you mean "install"?)`, or where the names are listed. */
async function unknown(what: string, name: string, known: readonly string[], where: string): Promise<string> {
	const { unknownName } = await import("../suggest.ts");
	return unknownName(what, name, known, `${where} --help lists them`);
}

/** `help [command [sub-command]]`: the help of what the names lead to. */
async function help(names: readonly string[]): Promise<void> {
	let command = ROOT;
	const path: string[] = [];
	for (const name of names) {
		const subs = subsOf(command) ?? {};
		if (!Object.hasOwn(subs, name))
			throw cliError(await unknown(path.length ? "action" : "command", name, Object.keys(subs), ["xcsh-hooks", ...path].join(" ")));
		command = await loaded(subs[name]);
		path.push(name);
	}
	await showHelp(path, command);
}

/** citty's own parse of the arguments gives way to the strict one (see the top of this file). */
const strictValues = (parsed: ParsedArgs): CittyPlugin => ({
	name: "xcsh-hooks-strict-args",
	setup(context) {
		Object.assign(context.args, parsed);
	},
});

/** Runs the CLI and resolves its exit code; errors become one line on stderr, never a stack trace. */
export async function main(rawArgs: string[]): Promise<number> {
	const index = firstPositional(rawArgs, GLOBAL_VALUE_FLAGS);
	const name = index >= 0 ? rawArgs[index] : undefined;
	const path: string[] = [];
	try {
		if (rawArgs.length === 0) {
			await showHelp([]);
			return EXIT_USAGE;
		}
		if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
			await writeOut(versionLine());
			return EXIT_OK;
		}
		if (name === "help") {
			await help(rawArgs.slice(index + 1).filter((arg) => !arg.startsWith("-")));
			return EXIT_OK;
		}
		if (!isName(name)) {
			if (asksForHelp(rawArgs, GLOBAL_VALUE_FLAGS) && name === undefined) {
				await showHelp([]);
				return EXIT_OK;
			}
			await writeErr(
				name === undefined
					? "xcsh-hooks: no command given. Run xcsh-hooks --help for the commands."
					: `xcsh-hooks: ${await unknown("command", name, [...Object.keys(subCommands), "help"], "xcsh-hooks")}`,
			);
			return EXIT_USAGE;
		}
		path.push(name);
		let command = await (subCommands[name] as Loader)();
		let rest = rawArgs.filter((_, i) => i !== index);
		// A command with sub-commands (`guard explain`): its options may come before the sub-command's name too.
		for (let subs = subsOf(command); subs; subs = subsOf(command)) {
			const values = new Set([...GLOBAL_VALUE_FLAGS, ...valueFlags((command.args ?? {}) as ArgsDef)]);
			const at = firstPositional(rest, values);
			if (at < 0) {
				const asked = asksForHelp(rest, values);
				if (!asked) await writeErr(`xcsh-hooks ${path.join(" ")}: which action? One of: ${Object.keys(subs).join(", ")}`);
				await showHelp(path, command);
				return asked ? EXIT_OK : EXIT_USAGE;
			}
			const sub = rest[at] as string;
			if (!Object.hasOwn(subs, sub)) throw cliError(await unknown("action", sub, Object.keys(subs), `xcsh-hooks ${path.join(" ")}`));
			path.push(sub);
			command = await loaded(subs[sub]);
			rest = rest.filter((_, i) => i !== at);
		}
		const args = (command.args ?? {}) as ArgsDef;
		if (asksForHelp(rest, valueFlags(args), REST_AFTER[name])) {
			await showHelp(path, command);
			return EXIT_OK;
		}
		const parsed = parseArgs(rest, args, path.join(" "), { restAfter: REST_AFTER[name] });
		if (HOT.has(name)) return exitCode(await command.run?.({ rawArgs: rest, args: parsed as never, cmd: command as CommandDef }));
		const { runCommand } = await import("citty");
		const { result } = await runCommand({ ...(command as CommandDef), plugins: [strictValues(parsed)] }, { rawArgs: rest });
		return exitCode(result);
	} catch (error) {
		const message = errorMessage(error).replace(/\x1b\[[0-9;]*m/g, "");
		await writeErr(`xcsh-hooks${path.length ? ` ${path.join(" ")}` : ""}: ${message}`);
		if (!isXcshError(error) && process.env.XCSH_HOOKS_DEBUG && error instanceof Error && error.stack) await writeErr(error.stack);
		return isXcshError(error) ? (error.exitCode ?? EXIT_USAGE) : EXIT_USAGE;
	}
}

const exitCode = (result: unknown) => (typeof result === "number" ? result : EXIT_OK);
