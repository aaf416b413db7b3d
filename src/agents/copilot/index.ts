import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { COPILOT } from "./protocol.ts";

/** GitHub Copilot CLI: everything the project knows of it, loaded part by part as a call needs it. */
export const copilot: AgentDescriptor = {
	name: COPILOT.name,
	label: COPILOT.label,
	timeoutSeconds: COPILOT.timeoutSeconds,
	projectVariable: COPILOT.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.copilotBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).copilotInstall,
};
