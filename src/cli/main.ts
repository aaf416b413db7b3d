import { type CommandDef, defineCommand, runCommand, showUsage } from "citty";
import { CliError, EXIT_OK, EXIT_USAGE, writeErr } from "./_shared.ts";

export const VERSION = "0.1.0";

// Commands load lazily: `emit` on the hot path never evaluates `init`, `demo` or consola.
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
} satisfies Record<string, () => Promise<CommandDef<any>>>;

export const rootCommand = defineCommand({
	meta: { name: "xcsh-hooks", version: VERSION, description: "Typed AI-agent hooks: scaffold, inspect, run and serve them" },
	subCommands,
});

type Name = keyof typeof subCommands;
const isName = (value: string | undefined): value is Name => value !== undefined && Object.hasOwn(subCommands, value);

/** Runs the CLI and resolves its exit code; errors become one line on stderr, never a stack trace. */
export async function main(rawArgs: string[]): Promise<number> {
	// The command is the first argument naming one, so global flags may come before it.
	const index = rawArgs.findIndex((arg) => isName(arg));
	const name = index >= 0 ? (rawArgs[index] as Name) : rawArgs.find((arg) => !arg.startsWith("-"));
	try {
		if (rawArgs.includes("--help") || rawArgs.includes("-h") || rawArgs.length === 0) {
			if (isName(name)) await showUsage(await subCommands[name](), rootCommand);
			else await showUsage(rootCommand);
			return rawArgs.length === 0 ? EXIT_USAGE : EXIT_OK;
		}
		if (rawArgs.length === 1 && (rawArgs[0] === "--version" || rawArgs[0] === "-v")) {
			console.log(VERSION);
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
		const command = await subCommands[name]();
		const { result } = await runCommand(command, { rawArgs: rawArgs.filter((_, i) => i !== index) });
		return typeof result === "number" ? result : EXIT_OK;
	} catch (error) {
		if (error instanceof CliError) {
			await writeErr(`xcsh-hooks ${name ?? ""}: ${error.message}`.replace(" :", ":"));
			return error.exitCode;
		}
		// citty's own usage errors (missing positional, bad enum value) carry a code like "EARG".
		const message = error instanceof Error ? error.message : String(error);
		if (error instanceof Error && typeof (error as { code?: unknown }).code === "string" && error.name === "CLIError") {
			await writeErr(`xcsh-hooks ${name}: ${message}. Run xcsh-hooks ${name} --help for usage.`);
			return EXIT_USAGE;
		}
		await writeErr(`xcsh-hooks ${name}: ${message}`);
		if (process.env.XCSH_HOOKS_DEBUG && error instanceof Error && error.stack) await writeErr(error.stack);
		return EXIT_USAGE;
	}
}
