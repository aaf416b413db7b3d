import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { inProcessOnlyBridge } from "../_shared/plugin-install.ts";
import { KILO } from "./protocol.ts";

/** Kilo Code: an OpenCode fork that loads our plugin into its own process (no command hooks, no bridge). */
export const kilo: AgentDescriptor = {
	name: KILO.name,
	label: KILO.label,
	timeoutSeconds: KILO.timeoutSeconds,
	bridge: () => inProcessOnlyBridge(KILO.label, KILO.name),
	install: () => (require("./install.ts") as typeof import("./install.ts")).kiloInstall,
	inProcess: () => (require("../_shared/opencode-family.ts") as typeof import("../_shared/opencode-family.ts")).opencodeFamily,
};
