import { isXcshError } from "../errors.ts";
import type { ArgsDef, CommandDef } from "citty";
import { errorMessage } from "../hooks/_describe.ts";
import { parseArgs } from "./_args.ts";
import { cliError, EXIT_OK, EXIT_USAGE, writeErr, writeOut } from "./_shared.ts";
import { SUMMARIES } from "./_summaries.ts";
import { PACKAGE_VERSION, versionLine } from "./version.ts";

// Commands load lazily: `emit` on the hot path never evaluates `init`, `demo`, citty or consola.
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
	completion: () => import("./completion.ts").then((m) => m.completionCommand(commandList)),
	// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument types.
} satisfies Record<string, () => Promise<CommandDef<any>>>;

const DESCRIPTION = "Typed AI-agent hooks: scaffold, inspect, run and serve them";

/** `xcsh-hooks help [command]` as a command of its own, so `help help` has something to show. */
const HELP_COMMAND: AnyCommand = {
	meta: { name: "help", description: "Show the help of a command, or with no command the list of commands (as --help does)." },
	args: { command: { type: "positional", required: false, description: "A command's name" } },
};

type Name = keyof typeof subCommands;
// biome-ignore lint/suspicious/noExplicitAny: dispatch is generic over every command's argument types.
type AnyCommand = CommandDef<any>;
const load = (name: Name) => subCommands[name]() as Promise<AnyCommand>;
const isName = (value: string | undefined): value is Name => value !== undefined && Object.hasOwn(subCommands, value);

/** Global options that take a value, which may come before the command name. */
const GLOBAL_VALUE_FLAGS = new Set(["--cwd", "--hook", "--extension", "-e"]);

/** Commands whose trailing arguments are passed on verbatim: `command deploy --dry-run`. */
const REST_AFTER: Partial<Record<Name, number>> = { command: 1 };

/** Where the command name is: the first argument that is neither an option nor a global option's value. */
function commandIndex(rawArgs: readonly string[]): number {
	for (let i = 0; i < rawArgs.length; i++) {
		const arg = rawArgs[i] as string;
		if (GLOBAL_VALUE_FLAGS.has(arg)) i++;
		else if (!arg.startsWith("-")) return isName(arg) ? i : -1;
	}
	return -1;
}

/** Every command with its definition, in the order of {@link subCommands} (for help and completion). */
export async function commandList(): Promise<Array<[Name, AnyCommand]>> {
	const names = Object.keys(subCommands) as Name[];
	return Promise.all(names.map(async (name): Promise<[Name, AnyCommand]> => [name, await load(name)]));
}

/** Prints the top-level help, or one command's help (the help renderer is loaded only here). */
async function showHelp(name?: Name | "help"): Promise<void> {
	const help = await import("./help.ts");
	if (name === "help") await writeOut(help.renderCommandHelp(name, HELP_COMMAND));
	else if (name) await writeOut(help.renderCommandHelp(name, await load(name)));
	else {
		const commands: Array<[string, AnyCommand]> = [...(await commandList()), ["help", HELP_COMMAND]];
		await writeOut(help.renderRootHelp(`${DESCRIPTION} (xcsh-hooks ${PACKAGE_VERSION})`, commands, SUMMARIES));
	}
}

/**
 * Whether `--help`/`-h` is one of our own flags: before `--`, and for a command that passes its
 * trailing arguments on (`command deploy --help`), before that command's name.
 */
function asksForHelp(rawArgs: readonly string[], index: number, name: Name | undefined): boolean {
	let end = rawArgs.indexOf("--");
	if (end < 0) end = rawArgs.length;
	const restAfter = name ? REST_AFTER[name] : undefined;
	if (restAfter !== undefined) {
		let positionals = 0;
		for (let i = index + 1; i < end; i++) {
			const arg = rawArgs[i] as string;
			if (GLOBAL_VALUE_FLAGS.has(arg) || arg === "--session") i++;
			else if (!arg.startsWith("-") && ++positionals > restAfter - 1) {
				end = i + 1;
				break;
			}
		}
	}
	return rawArgs.slice(0, end).some((arg) => arg === "--help" || arg === "-h");
}

/** `unknown command "instal" (did you mean "install"?)`, or where the commands are listed. */
async function unknownCommand(name: string): Promise<string> {
	const { unknownName } = await import("../suggest.ts");
	return unknownName("command", name, [...Object.keys(subCommands), "help"], "xcsh-hooks --help lists the commands");
}

/** Runs the CLI and resolves its exit code; errors become one line on stderr, never a stack trace. */
export async function main(rawArgs: string[]): Promise<number> {
	const index = commandIndex(rawArgs);
	const name = index >= 0 ? (rawArgs[index] as Name) : rawArgs.find((arg) => !arg.startsWith("-"));
	try {
		if (rawArgs.length === 0 || asksForHelp(rawArgs, index, isName(name) ? name : undefined)) {
			await showHelp(isName(name) || name === "help" ? name : undefined);
			return rawArgs.length === 0 ? EXIT_USAGE : EXIT_OK;
		}
		if (name === "help") {
			const topic = rawArgs[rawArgs.indexOf("help") + 1];
			if (topic !== undefined && !isName(topic) && topic !== "help") throw cliError(await unknownCommand(topic));
			await showHelp(topic);
			return EXIT_OK;
		}
		if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
			await writeOut(versionLine());
			return EXIT_OK;
		}
		if (!isName(name)) {
			await writeErr(
				name === undefined
					? "xcsh-hooks: no command given. Run xcsh-hooks --help for the commands."
					: `xcsh-hooks: ${await unknownCommand(name)}`,
			);
			return EXIT_USAGE;
		}
		const command = await load(name);
		const rest = rawArgs.filter((_, i) => i !== index);
		const args = parseArgs(rest, (command.args ?? {}) as ArgsDef, name, { restAfter: REST_AFTER[name] });
		const result = await command.run?.({ rawArgs: rest, args: args as never, cmd: command });
		return typeof result === "number" ? result : EXIT_OK;
	} catch (error) {
		const message = errorMessage(error);
		await writeErr(`xcsh-hooks${name ? ` ${name}` : ""}: ${message}`);
		if (!isXcshError(error) && process.env.XCSH_HOOKS_DEBUG && error instanceof Error && error.stack) await writeErr(error.stack);
		return isXcshError(error) ? (error.exitCode ?? EXIT_USAGE) : EXIT_USAGE;
	}
}
