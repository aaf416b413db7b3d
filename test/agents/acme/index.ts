import { join } from "pathe";
import type { AgentDescriptor } from "../../../src/agents/index.ts";
import { installEvents } from "../../../src/agents/_shared/events.ts";
import { TIMEOUT_S } from "../../../src/agents/_shared/install-spec.ts";
import { acmeBridge, acmeEvents } from "./bridge.ts";
import { acmeDialect } from "./dialect.ts";

/** The whole of Acme, as its folder would give it under src/agents/acme/index.ts. */
export const acme: AgentDescriptor = {
	name: "acme",
	label: "Acme Agent",
	timeoutSeconds: acmeBridge.timeoutSeconds,
	projectVariable: "ACME_PROJECT",
	bridge: async () => acmeBridge,
	install: () => ({
		id: "acme",
		label: "Acme Agent",
		file: (_scope, dir) => join(dir, ".acme", "hooks.json"),
		layout: "flat",
		commandKey: "command",
		base: {},
		events: installEvents(acmeEvents, [{ name: "before_tool", guard: true }, { name: "after_tool" }]),
		handler: (_event, command) => ({ command, timeout: TIMEOUT_S }),
		notes: () => [],
	}),
	ownHooks: {
		providerId: "acme-hooks",
		displayName: "Acme hooks.json",
		description: "Command hooks in .acme/hooks.json",
		priority: 40,
		layout: "flat",
		places: ({ cwd, home }) => [
			{ level: "project", file: join(cwd, ".acme", "hooks.json"), projectDir: cwd },
			{ level: "user", file: join(home, ".acme", "hooks.json") },
		],
		timeoutUnitMs: 1000,
		defaultTimeoutMs: 30_000,
		matchMode: "regex-or-exact",
		projectVariables: ["ACME_PROJECT"],
		dialect: () => acmeDialect,
	},
};
