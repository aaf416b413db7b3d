import { registerEmbeddedModules } from "../embedded/register.ts";
import { agentPlugin } from "./plugin.ts";

/*
 * What the plugin file `install opencode|kilo` writes imports: run from source it imports this file,
 * from the executable the same code bundled into `~/.xcsh/agent/runtime/<version>/` (see
 * `bundle-entry.ts`). Hook files loaded inside the agent import `xcsh-hooks`, `xcsh-hooks/guards`,
 * `@sinclair/typebox`… as values: they resolve to this very copy, with no node_modules anywhere.
 */
registerEmbeddedModules({ bundled: false });

/** The plugin OpenCode loads from `.opencode/plugin/xcsh-hooks.ts`. */
export const XcshOpenCodePlugin = agentPlugin("opencode");
/** The plugin Kilo Code loads from `.kilo/plugin/xcsh-hooks.ts`. */
export const XcshKiloPlugin = agentPlugin("kilo");
