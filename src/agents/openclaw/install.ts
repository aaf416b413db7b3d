import { join } from "pathe";
import type { AgentSpec } from "../_shared/install-spec.ts";
import { MANAGED_FLAG } from "../_shared/node-client.ts";
import { PLUGIN_MARKER, pluginFiles } from "./plugin.ts";
import { OPENCLAW } from "./protocol.ts";

/*
 * `install openclaw`: the plugin folder (plugin.ts) and its registration in OpenClaw's config
 * (`$OPENCLAW_CONFIG_PATH`, else `~/.openclaw/openclaw.json`), as OpenClaw's own `plugins install
 * --link <dir>` + `plugins enable <id>` make it: the folder in `plugins.load.paths` (user level; a
 * project's `.openclaw/extensions/` is found in the workspace without it) and
 * `plugins.entries.xcsh-hooks` enabled, with `hooks.allowConversationAccess` for `before_prompt_build`.
 */

/** OpenClaw's config file for a home. */
export function openclawConfig(home: string): string {
	return process.env.OPENCLAW_CONFIG_PATH || join(home, ".openclaw", "openclaw.json");
}

const folder = (scope: "project" | "user", dir: string) =>
	scope === "project" ? join(dir, ".openclaw", "extensions", OPENCLAW.pluginId) : join(dir, ".xcsh", "agent", "openclaw-plugin");

export const openclawInstall: AgentSpec = {
	id: OPENCLAW.name,
	label: OPENCLAW.label,
	file: folder,
	layout: "package",
	package: {
		dir: folder,
		config: openclawConfig,
		files: (command) => pluginFiles(command, !command.split(" ").includes(MANAGED_FLAG)),
		marker: PLUGIN_MARKER,
		settings: (scope, dir) => [
			...(scope === "user" ? [{ path: ["plugins", "load", "paths"], item: dir }] : []),
			{ path: ["plugins", "entries", OPENCLAW.pluginId], value: { enabled: true, hooks: { allowConversationAccess: true } } },
		],
	},
	commandKey: "command",
	base: {},
	events: [],
	handler: () => ({}),
	notes: (scope) => [
		`OpenClaw loads the plugin at its next start (the Gateway: restart it)${scope === "project" ? " when this folder is the agent's workspace" : ""}; check with: openclaw plugins inspect ${OPENCLAW.pluginId} --runtime --json`,
		"OpenClaw's `agent exec` does not run the hooks of plugins that are not bundled with it: runs started that way are NOT guarded (use `openclaw agent` or the Gateway).",
		`If your config lists plugins.allow, add "${OPENCLAW.pluginId}" to it.`,
	],
};
