import { join } from "node:path";
import { opencodeFamilyDriver } from "./_opencode-family.ts";

/** Kilo Code CLI 7.7.7 (7.8.1 cannot be installed from the registry): `kilo run`, an OpenCode fork (docs/agents/kilo.md). */
export const kiloDriver = opencodeFamilyDriver({
	id: "kilo",
	pin: { pkg: "@kilocode/cli", version: "7.7.7", bin: "kilo", path: join("@kilocode", "cli-linux-x64", "bin", "kilo") },
	config: "kilo.json",
	configDirs: ["proj/.kilo", "home/.config/kilo"],
	env: {
		KILO_DISABLE_AUTOUPDATE: "1",
		KILO_DISABLE_MODELS_FETCH: "1",
		KILO_DISABLE_SHARE: "1",
		KILO_DISABLE_LSP_DOWNLOAD: "1",
		KILO_TELEMETRY_LEVEL: "off",
		KILO_DISABLE_SESSION_INGEST: "1",
		KILO_DISABLE_PRESENCE: "1",
		KILO_NO_DAEMON: "1",
		KILO_DISABLE_CODEBASE_INDEXING: "1",
	},
});
