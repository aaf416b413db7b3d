import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { PI } from "./protocol.ts";

/** pi coding agent: everything the project knows of it, loaded part by part as a call needs it. */
export const pi: AgentDescriptor = {
	name: PI.name,
	label: PI.label,
	timeoutSeconds: PI.timeoutSeconds,
	projectVariable: PI.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.piBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).piInstall,
};
