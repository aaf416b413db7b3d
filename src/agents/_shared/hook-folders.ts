import { join } from "pathe";

/*
 * Folders of hook files laid out the way an agent names them (the seed's `.claude/hooks/{pre,post}`,
 * `.codex/hooks/pre-<tool>.ts`). An agent declares its folders here, as data; discovery scans them
 * (src/discovery/agent-folders.ts) and our runner runs what it finds, like any other hook file.
 */

/** What a hook file hooks: before (`pre`) or after (`post`) a tool, and which tool (`*`: all). */
export interface HookFileKind {
	type: "pre" | "post";
	tool: string;
}

/** One folder of hook files. */
export interface HookFolder {
	/** Absolute path of the folder. */
	dir: string;
	/** The file names that are hooks (a glob; default `*`). */
	pattern?: string;
	/** What a file named `stem` (its name without the extension) hooks. */
	classify: (stem: string) => HookFileKind;
	level: "project" | "user";
}

/** An agent's hook folders, as one discovery provider. */
export interface AgentHookFolders {
	/** The discovery provider's id. */
	providerId: string;
	displayName: string;
	description: string;
	/** Discovery priority (higher first). */
	priority: number;
	/** The folders, in the order their hooks run, for a project directory and a home. */
	folders(ctx: { cwd: string; home: string }): HookFolder[];
}

/** `pre/<tool>` and `post/<tool>` folders: the type from the folder, the tool from the stem. */
export function prePostFolders(hooksDir: string, level: HookFolder["level"]): HookFolder[] {
	return (["pre", "post"] as const).map((type) => ({
		dir: join(hooksDir, type),
		classify: (stem: string) => ({ type, tool: stem }),
		level,
	}));
}

const PREFIXED = /^(pre|post)-(.+)$/;

/** Files named `pre-<tool>` / `post-<tool>` (the Codex layout): that type and tool; any other stem → `pre`, all tools. */
export function classifyPrefixed(stem: string): HookFileKind {
	const match = PREFIXED.exec(stem);
	return match ? { type: match[1] as HookFileKind["type"], tool: match[2] as string } : { type: "pre", tool: "*" };
}
