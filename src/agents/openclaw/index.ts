import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { OPENCLAW } from "./protocol.ts";

/** OpenClaw: everything the project knows of it, loaded part by part as a call needs it. */
export const openclaw: AgentDescriptor = {
	name: OPENCLAW.name,
	label: OPENCLAW.label,
	timeoutSeconds: OPENCLAW.timeoutSeconds,
	projectVariable: OPENCLAW.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.openclawBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).openclawInstall,
};
