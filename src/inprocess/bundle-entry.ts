import { registerEmbeddedModules } from "../embedded/register.ts";
import { agentPlugin } from "./plugin.ts";

/*
 * The entry of the plugin runtime bundle (`bun run build` bundles it, the executable embeds it and
 * `install opencode|kilo` writes it to `~/.xcsh/agent/runtime/<version>/`). The same as `entry.ts`,
 * except that the served library's specifiers were resolved by the bundler.
 */
registerEmbeddedModules({ bundled: true });

/** The plugin OpenCode loads. */
export const XcshOpenCodePlugin = agentPlugin("opencode");
/** The plugin Kilo Code loads. */
export const XcshKiloPlugin = agentPlugin("kilo");
