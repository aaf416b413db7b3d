import { pluginInstall } from "../_shared/plugin-install.ts";
import { KILO } from "./protocol.ts";

/** One plugin file in `.kilo/plugin/` (project) or `~/.config/kilo/plugin/` (user). */
export const kiloInstall = pluginInstall({
	id: KILO.name,
	label: KILO.label,
	projectDir: KILO.projectDir,
	userDir: KILO.userDir,
	exportName: "XcshKiloPlugin",
});
