import type { ArgsDef } from "citty";
import type { Agent, InstallResult, Scope } from "../install/index.ts";
import { installableAgents, agentSpec, isInstallError, installBridge, installManaged, isAgent } from "../install/index.ts";
import { cliError, EXIT_OK, printJson, projectArgs, projectDir, writeErr, writeOut, writeOutExactly, defineCommand } from "./_shared.ts";
import { unknownName } from "../suggest.ts";
import { projectRootFor } from "./_project-root.ts";
import { installNext, nextLines } from "./_install-next.ts";

/** The arguments `install` and `uninstall` share. */
export const installArgs = {
	agent: { type: "positional", description: `The agent: ${installableAgents().join(" | ")}` },
	project: { type: "boolean", description: "The project's config under --cwd (the default)" },
	user: { type: "boolean", description: "The user's config under the home directory" },
	managed: { type: "boolean", description: "The agent's managed (system) config: needs root; --command at a system path" },
	"dry-run": { type: "boolean", description: "Print the file as it would be written (stdout) and the changes (stderr); write nothing" },
	...projectArgs,
} as const satisfies ArgsDef;

/** The agent positional, checked. */
export function agentArg(value: unknown): Agent {
	const name = String(value);
	if (!isAgent(name)) throw cliError(unknownName("agent", name, installableAgents()));
	return name;
}

/** `--project` / `--user`: at most one; project when neither. */
export function scopeArg(args: { project?: unknown; user?: unknown; managed?: unknown }): Scope {
	if (args.managed && (args.project || args.user)) throw cliError("--managed writes the system config; drop --project / --user");
	if (args.project && args.user) throw cliError("--project and --user are mutually exclusive; give one of them (default: --project)");
	return args.user ? "user" : "project";
}

/** Runs an install/uninstall, turning a refusal into a one-line error (exit 1) naming the file. */
export async function runInstall(task: () => Promise<InstallResult>): Promise<InstallResult> {
	try {
		return await task();
	} catch (error) {
		if (isInstallError(error)) throw cliError(error.message);
		throw error;
	}
}

/** Prints an install/uninstall result: JSON, a dry run's file text, or what changed. */
export async function report(
	result: InstallResult,
	options: { json?: boolean | undefined; dryRun?: boolean; verb: string },
): Promise<void> {
	if (options.json) {
		await printJson(result);
		return;
	}
	const label = `${agentSpec(result.agent).label} (${result.scope})`;
	if (result.changes.length === 0) {
		await writeOut(
			options.verb === "install"
				? `${label}: ${result.file} already has the xcsh-hooks entries; nothing changed.`
				: `${label}: ${result.file} has no xcsh-hooks entries; nothing changed.`,
		);
		// Why something that looks like ours was left alone (a plugin file with our name that install did not write).
		if (options.verb !== "install") for (const note of result.notes) await writeOut(`note: ${note}`);
		return;
	}
	const command = (result.changes.find((c) => c.action !== "remove") ?? result.changes[0])?.command;
	const lines = [`  ${/^https?:/.test(command ?? "") ? "url" : "command"}: ${command}`];
	for (const c of result.changes) {
		const sign = c.action === "add" ? "+" : c.action === "remove" ? "-" : "~";
		const other = c.command === command ? "" : `: ${c.command}`;
		lines.push(`  ${sign} ${c.action} ${c.event}${c.matcher === undefined ? "" : ` (matcher ${c.matcher})`}${other}`);
	}
	// What was done to the file: uninstall takes our entries out (or deletes the file it created), install writes them.
	const [fate, done] = result.removeFile
		? ["delete", "deleted"]
		: options.verb === "install"
			? ["write", "wrote"]
			: ["remove the xcsh-hooks entries from", "removed the xcsh-hooks entries from"];
	const head = options.dryRun ? `${label}: would ${fate} ${result.file}` : `${label}: ${done} ${result.file}`;
	const folders = (result.removedDirs ?? []).map((dir) => `  removed the empty folder ${dir} (install created it)`);
	const summary = [head, ...lines, ...folders, ...result.notes.map((n) => `note: ${n}`)].join("\n");
	if (!options.dryRun) {
		await writeOut(summary);
		return;
	}
	// A dry run's stdout is exactly the text that would be written (nothing when the file would go).
	await writeErr(summary);
	if (result.content !== undefined) await writeOutExactly(result.content);
}

/** `xcsh-hooks install <agent>`: writes the bridge entries into the agent's hook config. */
export const installCommand = defineCommand({
	meta: {
		name: "install",
		description: "Add the bridge to an agent's hook config",
		details: "Add xcsh-hooks' bridge entries (one per supported event) to an agent's hook config, keeping everything else",
	},
	args: {
		...installArgs,
		command: {
			type: "string",
			description: "Program to run instead of this executable (the entry runs `<CMD> bridge <agent>`)",
			valueHint: "CMD",
		},
		"only-managed": {
			type: "boolean",
			description: "With --managed: also set the agent's managed-hooks-only switch",
		},
		http: {
			type: "string",
			description: 'Claude only: write type "http" entries posting to this URL (xcsh-hooks serve --http) instead of commands',
			valueHint: "URL",
		},
	},
	async run({ args }) {
		const agent = agentArg(args.agent);
		const scope = scopeArg(args);
		const dryRun = Boolean(args["dry-run"]);
		// A project-scope install below the project root writes the root's config (and says so).
		const cwd = scope === "project" && !args.managed ? await projectRootFor(projectDir(args.cwd)) : projectDir(args.cwd);
		if (args.http !== undefined && args.command !== undefined)
			throw cliError("--http and --command are mutually exclusive: an http entry runs no command");
		if (args["only-managed"] && !args.managed) throw cliError("--only-managed needs --managed");
		if (args.managed && args.http !== undefined) throw cliError("--managed writes command entries; drop --http");
		const result = await runInstall(() =>
			args.managed
				? installManaged(agent, { command: args.command, onlyManaged: Boolean(args["only-managed"]), dryRun })
				: installBridge(agent, { scope, cwd, command: args.command, dryRun, http: args.http }),
		);
		// What happens next (where the project is, a first hook, the server, what to commit): said once written.
		const next = args.managed || dryRun ? undefined : await installNext(result, cwd, args.command === undefined && args.http === undefined);
		if (args.json && next) {
			await printJson({ ...result, next });
			return EXIT_OK;
		}
		await report(result, { json: args.json, dryRun, verb: "install" });
		if (next) await writeOut(nextLines(next, result, projectDir(args.cwd)).join("\n"));
		return EXIT_OK;
	},
});
