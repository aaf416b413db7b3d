import { join } from "pathe";
import { type AgentHookFolders, prePostFolders } from "../_shared/hook-folders.ts";

/** Claude Code style `pre/` and `post/` folders (priority 80): `<cwd>/.claude/hooks`, then `~/.claude/hooks`. */
export const claudeHookFolders: AgentHookFolders = {
	providerId: "claude",
	displayName: "Claude Code",
	description: "Hooks in .claude/hooks/{pre,post} (project and user)",
	priority: 80,
	folders: ({ cwd, home }) => [
		...prePostFolders(join(cwd, ".claude", "hooks"), "project"),
		...prePostFolders(join(home, ".claude", "hooks"), "user"),
	],
};
