import { join } from "pathe";
import type { Hook, HookType } from "./hooks-capability.ts";
import type { ProviderDefinition } from "./capability/registry.ts";
import { type HookDir, scanHookDirs } from "./_scan.ts";

const PREFIXED = /^(pre|post)-(.+)$/;

/** `pre-<tool>` / `post-<tool>` → that type and tool; any other stem → `pre`, all tools. */
export function classifyCodexHook(stem: string): { type: HookType; tool: string } {
	const match = PREFIXED.exec(stem);
	return match ? { type: match[1] as HookType, tool: match[2] as string } : { type: "pre", tool: "*" };
}

const codexDir = (root: string, level: HookDir["level"]): HookDir => ({
	dir: join(root, ".codex", "hooks"),
	pattern: "*.{ts,js}",
	classify: classifyCodexHook,
	level,
});

/** Codex-style modules (priority 70): `<cwd>/.codex/hooks/*.{ts,js}`, then `~/.codex/hooks/*.{ts,js}`. */
export const codexProvider: ProviderDefinition<Hook> = {
	id: "codex",
	displayName: "Codex",
	description: "Hook modules in .codex/hooks (project and user), named pre-<tool> / post-<tool>",
	priority: 70,
	load: ({ cwd, home }) => scanHookDirs([codexDir(cwd, "project"), codexDir(home, "user")], codexProvider),
	watch: ({ cwd, home }) => ({ dirs: [codexDir(cwd, "project").dir, codexDir(home, "user").dir] }),
};
