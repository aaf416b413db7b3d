import { join } from "pathe";
import type { Hook } from "./hooks-capability.ts";
import type { LoadContext, ProviderDefinition } from "./capability/registry.ts";
import { type HookDir, prePostDirs, scanHookDirs } from "./_scan.ts";

/** Claude Code style `pre/` and `post/` folders (priority 80): `<cwd>/.claude/hooks`, then `~/.claude/hooks`. */
export const claudeProvider: ProviderDefinition<Hook> = {
	id: "claude",
	displayName: "Claude Code",
	description: "Hooks in .claude/hooks/{pre,post} (project and user)",
	priority: 80,
	load: (ctx) => scanHookDirs(claudeDirs(ctx), claudeProvider),
	watch: (ctx) => ({ dirs: claudeDirs(ctx).map((d) => d.dir) }),
};

function claudeDirs({ cwd, home }: LoadContext): HookDir[] {
	return [...prePostDirs(join(cwd, ".claude", "hooks"), "project"), ...prePostDirs(join(home, ".claude", "hooks"), "user")];
}
