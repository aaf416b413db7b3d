import { cliError, EXIT_OK, EXIT_USAGE, globalArgs, hookPaths, printJson, projectDir, writeErr, defineCommand } from "./_shared.ts";
import { createHost, describeSkips } from "../host/host.ts";

export const commandCommand = defineCommand({
	meta: {
		name: "command",
		description: "Run a slash command registered by a hook",
		details:
			"Run a slash command registered by a hook: xcsh-hooks command [options] <name> [args…] (everything after the name goes to the command)",
	},
	args: {
		name: { type: "positional", description: "Command name, with or without the leading /" },
		session: { type: "string", description: "Session JSONL file for sendMessage/appendEntry", valueHint: "file" },
		...globalArgs,
	},
	async run({ args }) {
		const name = (args.name as string).replace(/^\//, "");
		// Everything after the name is the command's argument string, as a user would type it.
		const rest = args._.slice(1).join(" ");
		const host = await createHost({
			cwd: projectDir(args.cwd),
			hookPaths: hookPaths(args),
			discovery: args.discovery,
			sessionFile: args.session,
		});
		try {
			for (const line of describeSkips(host)) await writeErr(line);
			for (const e of host.loadErrors) await writeErr(`${e.path}: ${e.error}`);
			const command = host.runner.getCommand(name);
			if (!command) {
				const known = host.runner.getRegisteredCommands().map((c) => `/${c.name}`);
				throw cliError(
					`no hook registers /${name}; ${known.length ? `registered: ${[...new Set(known)].join(", ")}` : "no commands are registered"}`,
				);
			}
			try {
				await command.handler(rest, host.runner.createCommandContext());
			} catch (error) {
				await writeErr(`/${name} failed: ${error instanceof Error ? error.message : String(error)}`);
				return EXIT_USAGE;
			}
			if (args.json) await printJson({ command: name, args: rest, session: host.sessionFile, errors: host.errors });
			for (const e of host.errors) await writeErr(`hook error (${e.event}) ${e.hookPath}: ${e.error}`);
			return EXIT_OK;
		} finally {
			host.close();
		}
	},
});
