import { join } from "node:path";
import { opencodeFamilyDriver } from "./_opencode-family.ts";

/** OpenCode 1.18.33 (its compiled platform binary): `opencode run` against the scripted model (docs/agents/opencode.md). */
export const opencodeDriver = opencodeFamilyDriver({
	id: "opencode",
	pin: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode", path: join("opencode-linux-x64", "bin", "opencode") },
	config: "opencode.json",
	configDirs: ["proj/.opencode", "home/.config/opencode"],
	env: {
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_SHARE: "1",
		OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
		OPENCODE_DISABLE_CLAUDE_CODE: "1",
	},
});
