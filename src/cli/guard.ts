import { createShellGuard, PACKS, type PackName, type ShellCommand } from "../guards/index.ts";
import { CliError, EXIT_BLOCKED, EXIT_OK, defineCommand, printJson, projectArgs, projectDir, writeOut } from "./_shared.ts";

/** One command as the analyzer saw it: what runs it, then the program and its arguments. */
function describe(command: ShellCommand): string {
	const words = [command.program, ...command.args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)));
	const via = command.via.length > 0 ? `  (via ${command.via.join(" > ")})` : "";
	const extra = command.deletes?.length ? `  deletes: ${command.deletes.map((d) => d.call).join(", ")}` : "";
	return `  ${words.join(" ")}${via}${extra}`;
}

/** `xcsh-hooks guard explain "<command>"`: what the shell guard sees in a command line and what decides. */
export const guardCommand = defineCommand({
	meta: { name: "guard", description: "Show what the shell guard sees in a command and which rule decides" },
	args: {
		action: { type: "positional", required: true, description: "explain", valueHint: "explain" },
		command: { type: "positional", required: true, description: "The command line, quoted", valueHint: "command" },
		packs: { type: "string", description: "Packs, comma-separated (default: shell,git,filesystem)", valueHint: "list" },
		"allow-path": { type: "string", description: "A path that may be deleted (comma-separated)", valueHint: "paths" },
		...projectArgs,
	},
	async run({ args }) {
		if (args.action !== "explain") throw new CliError(`unknown action "${args.action}"; expected: explain`);
		const names = args.packs === undefined ? undefined : String(args.packs).split(",").filter(Boolean);
		const unknown = names?.filter((name) => !Object.hasOwn(PACKS, name)) ?? [];
		if (unknown.length > 0) throw new CliError(`--packs: unknown pack "${unknown[0]}"; packs: ${Object.keys(PACKS).join(", ")}`);
		const cwd = projectDir(args.cwd);
		const allowPaths = args["allow-path"] === undefined ? [] : String(args["allow-path"]).split(",").filter(Boolean);
		const guard = createShellGuard({ ...(names ? { packs: names as PackName[] } : {}), allowPaths });
		const decision = await guard.decide(String(args.command), { cwd, analyze: true });
		if (args.json) await printJson(decision);
		else {
			const seen = decision.commands.length > 0 ? decision.commands.map(describe) : ["  (none)"];
			const verdict = decision.block ? `blocked by ${decision.rule}: ${decision.reason}` : "allowed: no rule matched";
			await writeOut(["commands:", ...seen, verdict].join("\n"));
		}
		return decision.block ? EXIT_BLOCKED : EXIT_OK;
	},
});
