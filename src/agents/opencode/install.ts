import { pluginInstall } from "../_shared/plugin-install.ts";
import { OPENCODE } from "./protocol.ts";

/** One plugin file in `.opencode/plugin/` (project) or `~/.config/opencode/plugin/` (user). */
export const opencodeInstall = pluginInstall({
	id: OPENCODE.name,
	label: OPENCODE.label,
	projectDir: OPENCODE.projectDir,
	userDir: OPENCODE.userDir,
	exportName: "XcshOpenCodePlugin",
});
