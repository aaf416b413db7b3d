import { join } from "pathe";
import { type AgentSpec, homeOverride } from "../_shared/install-spec.ts";
import { extensionSource } from "./extension.ts";
import { MANAGED_FLAG } from "../_shared/node-client.ts";
import { PI } from "./protocol.ts";

// One file, the extension (extension.ts), in the folder pi loads extensions from; the `files` layout
// marks it as ours, never overwrites a file of the user's at its name, and `uninstall` removes exactly it.
// Every forwarded event runs the same command: the payload's `type` names the event.
export const piInstall: AgentSpec = {
	id: PI.name,
	label: PI.label,
	file: (scope, dir) => (scope === "project" ? join(dir, ".pi", "extensions") : join(dir, ".pi", "agent", "extensions")),
	layout: "files",
	fileMode: 0o644,
	commandKey: "command",
	base: {},
	events: [{ name: PI.extensionFile, xcsh: "tool_call", guard: true }],
	// A managed entry's calls never go to the user's server (its command says so); the others may.
	script: (_event, command) =>
		extensionSource(
			Object.fromEntries(PI.forwarded.map((event) => [event, command])),
			undefined,
			!command.split(" ").includes(MANAGED_FLAG),
		),
	handler: (_event, command) => ({ command }),
	notes: (scope, dir) => [
		...homeOverride(scope, "PI_CODING_AGENT_DIR", join(dir, ".pi", "agent"), "extensions/xcsh-hooks.js"),
		"pi loads the extension at its next start (pi --no-extensions skips it, and then nothing is guarded).",
	],
};
