import { join } from "pathe";
import { type AgentHookFolders, classifyPrefixed, type HookFolder } from "../_shared/hook-folders.ts";

const codexFolder = (root: string, level: HookFolder["level"]): HookFolder => ({
	dir: join(root, ".codex", "hooks"),
	pattern: "*.{ts,js}",
	classify: classifyPrefixed,
	level,
});

/** Codex-style modules (priority 70): `<cwd>/.codex/hooks/*.{ts,js}`, then `~/.codex/hooks/*.{ts,js}`, named pre-<tool> / post-<tool>. */
export const codexHookFolders: AgentHookFolders = {
	providerId: "codex",
	displayName: "Codex",
	description: "Hook modules in .codex/hooks (project and user), named pre-<tool> / post-<tool>",
	priority: 70,
	folders: ({ cwd, home }) => [codexFolder(cwd, "project"), codexFolder(home, "user")],
};
