import type { ArgsDef, CommandDef } from "citty";
import { errorMessage } from "../hooks/_describe.ts";
import { parseArgs } from "./_args.ts";
import { CliError, defineCommand, EXIT_OK, EXIT_USAGE, writeErr, writeOut } from "./_shared.ts";

const VERSION = "0.1.0";

// Commands load lazily: `emit` on the hot path never evaluates `init`, `demo`, citty or consola.
const subCommands = {
	init: () => import("./init.ts").then((m) => m.initCommand),
	list: () => import("./list.ts").then((m) => m.listCommand),
	check: () => import("./check.ts").then((m) => m.checkCommand),
	emit: () => import("./emit.ts").then((m) => m.emitCommand),
	run: () => import("./run.ts").then((m) => m.runToolCommand),
	command: () => import("./command.ts").then((m) => m.commandCommand),
	schema: () => import("./schema.ts").then((m) => m.schemaCommand),
	trust: () => import("./trust.ts").then((m) => m.trustCommand),
	demo: () => import("./demo.ts").then((m) => m.demoCommand),
	serve: () => import("./serve.ts").then((m) => m.serveCommand),
	install: () => import("./install.ts").then((m) => m.installCommand),
	uninstall: () => import("./uninstall.ts").then((m) => m.uninstallCommand),
	log: () => import("./log.ts").then((m) => m.logCommand),
	bridge: () => import("./bridge.ts").then((m) => m.bridgeCommand),
	// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument types.
} satisfies Record<string, () => Promise<CommandDef<any>>>;

const rootCommand = defineCommand({
	meta: { name: "xcsh-hooks", version: VERSION, description: "Typed AI-agent hooks: scaffold, inspect, run and serve them" },
	subCommands,
});

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

/** Renders citty's usage text (citty is loaded only here). */
async function showHelp(command: AnyCommand, parent?: AnyCommand): Promise<void> {
	const { renderUsage } = await import("citty");
	await writeOut(`${await renderUsage(command, parent)}\n`);
}

/** Runs the CLI and resolves its exit code; errors become one line on stderr, never a stack trace. */
export async function main(rawArgs: string[]): Promise<number> {
	const index = commandIndex(rawArgs);
	const name = index >= 0 ? (rawArgs[index] as Name) : rawArgs.find((arg) => !arg.startsWith("-"));
	try {
		if (rawArgs.includes("--help") || rawArgs.includes("-h") || rawArgs.length === 0) {
			if (isName(name)) await showHelp(await load(name), rootCommand as AnyCommand);
			else await showHelp(rootCommand as AnyCommand);
			return rawArgs.length === 0 ? EXIT_USAGE : EXIT_OK;
		}
		if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
			await writeOut(VERSION);
			return EXIT_OK;
		}
		if (!isName(name)) {
			await writeErr(
				name === undefined
					? "xcsh-hooks: no command given. Run xcsh-hooks --help for the commands."
					: `xcsh-hooks: unknown command "${name}". Commands: ${Object.keys(subCommands).join(", ")}.`,
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
		if (!(error instanceof CliError) && process.env.XCSH_HOOKS_DEBUG && error instanceof Error && error.stack)
			await writeErr(error.stack);
		return error instanceof CliError ? error.exitCode : EXIT_USAGE;
	}
}
