import { XcshError } from "../../errors.ts";
import { join } from "pathe";
import { type AgentSpec, pluginMarker } from "./install-spec.ts";

/** What differs between the agents that load an OpenCode-style plugin file. */
export interface PluginInstallFacts {
	id: string;
	label: string;
	/** The project's plugin folder, relative to the project (`.opencode/plugin`). */
	projectDir: string;
	/** The user's plugin folder under the XDG config folder (`opencode/plugin` → `~/.config/opencode/plugin`). */
	userDir: string;
	/** The runtime's export this agent's plugin file re-exports (`XcshOpenCodePlugin`). */
	exportName: string;
}

/** The file name `install` writes into the agent's plugin folder. */
export const PLUGIN_FILE_NAME = "xcsh-hooks.ts";

/**
 * The `plugin` layout: one file in the agent's plugin folder that re-exports our plugin from the
 * runtime on disk, by absolute path (no package is installed into the agent, no node_modules beside it).
 * The user level is under `$XDG_CONFIG_HOME` when set, as the agent reads it, else `~/.config`.
 */
export function pluginInstall(facts: PluginInstallFacts): AgentSpec {
	const configHome = (home: string) => process.env.XDG_CONFIG_HOME || join(home, ".config");
	return {
		id: facts.id,
		label: facts.label,
		file: (scope, dir) => (scope === "project" ? join(dir, facts.projectDir) : join(configHome(dir), facts.userDir)),
		layout: "plugin",
		plugin: {
			fileName: PLUGIN_FILE_NAME,
			text: (runtime) =>
				[
					pluginMarker(facts.id),
					`// It runs this project's xcsh hooks (.xcsh/hooks/, approved with \`xcsh-hooks trust\`) inside ${facts.label}.`,
					`export { ${facts.exportName} } from ${JSON.stringify(runtime)};`,
					"",
				].join("\n"),
		},
		commandKey: "command",
		base: {},
		events: [],
		handler: () => ({}),
		notes: (scope) => [
			`${facts.label} loads the plugin at its next start; project hooks run once approved (xcsh-hooks trust approve …)${scope === "user" ? ", in every project" : ""}.`,
		],
	};
}

/** The `bridge()` of an agent that has no command hooks: refused with what to do instead. */
export function inProcessOnlyBridge(label: string, name: string): Promise<never> {
	return Promise.reject(
		new XcshError("USAGE", `${label} runs xcsh hooks in its own process, not through a bridge; run: xcsh-hooks install ${name}`),
	);
}
