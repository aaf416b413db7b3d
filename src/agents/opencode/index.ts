import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { inProcessOnlyBridge } from "../_shared/plugin-install.ts";
import { OPENCODE } from "./protocol.ts";

/** OpenCode: loads our plugin into its own process (no command hooks, no bridge). */
export const opencode: AgentDescriptor = {
	name: OPENCODE.name,
	label: OPENCODE.label,
	timeoutSeconds: OPENCODE.timeoutSeconds,
	bridge: () => inProcessOnlyBridge(OPENCODE.label, OPENCODE.name),
	install: () => (require("./install.ts") as typeof import("./install.ts")).opencodeInstall,
	inProcess: () => (require("../_shared/opencode-family.ts") as typeof import("../_shared/opencode-family.ts")).opencodeFamily,
};
