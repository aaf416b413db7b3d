import { join } from "node:path";
import type { Sandbox } from "../sandbox.ts";
import type { HookCommands } from "./types.ts";

/** The log of every run of the bridge command as a process (logs/): a served plugin runs it only without a server. */
export const SPAWN_LOG = "bridge-spawns.log";

/**
 * For a plugin that talks to the hook server itself (pi's extension, OpenClaw's plugin): when every role
 * runs `install`'s own entry (`'<exe>' bridge <agent>`), the plugin may use the server's socket as the
 * installed one does, and its command is wrapped to log each time it runs as a process. Other commands
 * (the self-check's, `--hook` flags the server cannot take) always run as processes.
 */
export function servedHooks(sandbox: Sandbox, hooks: HookCommands, agent: string): { hooks: HookCommands; served: boolean } {
	const bridge = new RegExp(`^'[^']*' bridge ${agent}$`).test(hooks.pre) && hooks.post === hooks.pre && hooks.prompt === hooks.pre;
	if (!bridge) return { hooks, served: false };
	const wrapper = `bridge-${agent}.sh`;
	sandbox.write({ [wrapper]: `#!/bin/sh\necho "$$" >> '${join(sandbox.logs, SPAWN_LOG)}'\nexec ${hooks.pre} "$@"\n` });
	const wrapped = join(sandbox.root, wrapper);
	return { hooks: { ...hooks, pre: wrapped, post: wrapped, prompt: wrapped }, served: true };
}
