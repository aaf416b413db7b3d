import { join } from "pathe";
import type { Hook } from "./hooks-capability.ts";
import type { LoadContext, ProviderDefinition } from "./capability/registry.ts";
import { MODULE_GLOB } from "../hooks/module-files.ts";
import { prePostFolders } from "../agents/_shared/hook-folders.ts";
import { type HookDir, scanHookDirs } from "./_scan.ts";

const allTools = () => ({ type: "pre" as const, tool: "*" });

/**
 * xcsh's own hook folders (priority 100): project `<cwd>/.xcsh/hooks`, user `~/.xcsh/agent/hooks`.
 * Each holds `pre/` and `post/` scripts plus hook modules (any module extension, `MODULE_GLOB`) directly inside.
 * Order: project before user; per level `pre/`, `post/`, then the direct modules.
 */
export const nativeProvider: ProviderDefinition<Hook> = {
	id: "native",
	displayName: "xcsh",
	description: "Hooks in .xcsh/hooks (project) and ~/.xcsh/agent/hooks (user)",
	priority: 100,
	load: (ctx) => scanHookDirs(nativeDirs(ctx), nativeProvider),
	watch: (ctx) => ({ dirs: nativeDirs(ctx).map((d) => d.dir) }),
};

function nativeDirs({ cwd, home }: LoadContext): HookDir[] {
	const project = join(cwd, ".xcsh", "hooks");
	const user = join(home, ".xcsh", "agent", "hooks");
	return [
		...prePostFolders(project, "project"),
		{ dir: project, pattern: MODULE_GLOB, classify: allTools, level: "project" },
		...prePostFolders(user, "user"),
		{ dir: user, pattern: MODULE_GLOB, classify: allTools, level: "user" },
	];
}
