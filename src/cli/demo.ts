import { runDemo } from "../demo/run-demo.ts";
import { cliError, defineCommand, EXIT_OK, EXIT_USAGE, printJson, writeErr, writeOut } from "./_shared.ts";

export const demoCommand = defineCommand({
	meta: {
		name: "demo",
		description: "Run the example hooks over a scripted agent session",
		details: "Run the bundled example hooks over a scripted agent session in a temp workspace, with real tools",
	},
	args: {
		workspace: { type: "string", description: "Use this empty (or new) directory instead of a temp dir", valueHint: "dir" },
		json: { type: "boolean", description: "Print only a JSON summary on stdout (the trace goes to stderr)" },
		keep: { type: "boolean", description: "Keep the temp workspace (its hooks and session) instead of removing it" },
	},
	async run({ args }) {
		const lines: string[] = [];
		const summary = await runDemo({
			write: (line) => lines.push(line),
			workspace: args.workspace,
			// A --workspace is the user's folder: kept. The temp dir goes unless asked to keep it.
			removeWorkspace: args.workspace === undefined && !args.keep,
		}).catch((error: Error) => {
			throw cliError(error.message);
		});
		// One format per stream: with --json stdout holds the summary alone, and the trace is still seen.
		if (args.json) {
			await writeErr(lines.join("\n"));
			await printJson(summary);
		} else await writeOut(lines.join("\n"));
		return summary.hookErrors.length === 0 ? EXIT_OK : EXIT_USAGE;
	},
});
