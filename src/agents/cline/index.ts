import type { AgentDescriptor } from "../_shared/descriptor.ts";
import { CLINE } from "./protocol.ts";

/** Cline: everything the project knows of it, loaded part by part as a call needs it. */
export const cline: AgentDescriptor = {
	name: CLINE.name,
	label: CLINE.label,
	timeoutSeconds: CLINE.timeoutSeconds,
	projectVariable: CLINE.projectVariable,
	bridge: () => import("./bridge.ts").then((m) => m.clineBridge),
	install: () => (require("./install.ts") as typeof import("./install.ts")).clineInstall,
};
