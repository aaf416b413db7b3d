import { uninstallBridge, uninstallManaged } from "../install/index.ts";
import { EXIT_OK, projectDir, defineCommand } from "./_shared.ts";
import { agentArg, installArgs, report, runInstall, scopeArg } from "./install.ts";
import { projectRootFor } from "./_project-root.ts";

/** `xcsh-hooks uninstall <agent>`: removes exactly the bridge entries again. */
export const uninstallCommand = defineCommand({
	meta: {
		name: "uninstall",
		description: "Remove the bridge from an agent's hook config",
		details: "Remove exactly xcsh-hooks' bridge entries from an agent's hook config, leaving everything else",
	},
	args: installArgs,
	async run({ args }) {
		const agent = agentArg(args.agent);
		const scope = scopeArg(args);
		const dryRun = Boolean(args["dry-run"]);
		const cwd = scope === "project" && !args.managed ? await projectRootFor(projectDir(args.cwd)) : projectDir(args.cwd);
		const result = await runInstall(() =>
			args.managed ? uninstallManaged(agent, { dryRun }) : uninstallBridge(agent, { scope, cwd, dryRun }),
		);
		await report(result, { json: args.json, dryRun, verb: "uninstall" });
		return EXIT_OK;
	},
});
