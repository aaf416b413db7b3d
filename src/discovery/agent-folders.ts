import { XcshError } from "../errors.ts";
import { agentsWithHookFolders, findAgent } from "../agents/index.ts";
import type { AgentHookFolders } from "../agents/_shared/hook-folders.ts";
import type { ProviderDefinition } from "./capability/registry.ts";
import type { Hook } from "./hooks-capability.ts";
import { scanHookDirs } from "./_scan.ts";

/*
 * The providers of the hook folders agents name (`.claude/hooks/{pre,post}`, `.codex/hooks`): each
 * agent declares its folders in its own folder (`src/agents/<agent>/hook-folders.ts`); discovery scans them.
 */

const built = new Map<AgentHookFolders, ProviderDefinition<Hook>>();

/** The discovery provider of one agent's hook folders (one object per declaration, so it registers once). */
function folderProvider(folders: AgentHookFolders): ProviderDefinition<Hook> {
	const known = built.get(folders);
	if (known) return known;
	const provider: ProviderDefinition<Hook> = {
		id: folders.providerId,
		displayName: folders.displayName,
		description: folders.description,
		priority: folders.priority,
		load: (ctx) => scanHookDirs(folders.folders(ctx), provider),
		watch: (ctx) => ({ dirs: folders.folders(ctx).map((folder) => folder.dir) }),
	};
	built.set(folders, provider);
	return provider;
}

/** The providers of every agent's hook folders, in registry order. */
export function hookFolderProviders(): ProviderDefinition<Hook>[] {
	return agentsWithHookFolders().map((agent) => folderProvider(agent.hookFolders));
}

/** The provider of the hook folders of the agent called `agent`; throws for an agent that names none. */
export function hookFolderProvider(agent: string): ProviderDefinition<Hook> {
	const folders = findAgent(agent)?.hookFolders;
	if (!folders) throw new XcshError("UNKNOWN_NAME", `agent "${agent}" names no hook folders`);
	return folderProvider(folders);
}
