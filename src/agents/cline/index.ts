import { join } from "pathe";
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
	ownHooks: {
		providerId: "cline-hooks",
		displayName: "Cline hook files",
		description: "Executables named after events in .clinerules/hooks/ and ~/.cline/hooks/",
		priority: 42,
		layout: "files",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".clinerules", "hooks"), projectDir: cwd },
			{ level: "user", file: join(home, ".cline", "hooks") },
		],
		timeoutUnitMs: 1000,
		// Cline waits 120 s for a hook file (docs/agents/cline.md).
		defaultTimeoutMs: 120_000,
		matchMode: "regex-or-exact",
		projectVariables: [],
		dialect: () => (require("./dialect.ts") as typeof import("./dialect.ts")).clineDialect,
	},
};
