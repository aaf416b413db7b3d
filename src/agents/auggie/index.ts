import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { AUGGIE } from "./protocol.ts";

/**
 * Auggie (Augment Code's CLI): everything the project knows of it, loaded part by part as a call needs it.
 * Its own command hooks are not read into our runner (no `ownHooks`): Auggie runs them itself.
 */
export const auggie: AgentDescriptor = {
	name: AUGGIE.name,
	label: AUGGIE.label,
	timeoutSeconds: AUGGIE.timeoutSeconds,
	projectVariable: AUGGIE.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.auggieBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).auggieInstall,
};
