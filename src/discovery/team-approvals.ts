/*
 * Team approvals in discovery: which signed lists the user's and the root-owned system settings name,
 * and whether a project hook not approved locally is on one of them (src/trust/team-list.ts verifies
 * and reads the lists; it is imported only when a hook needs it).
 */
import type { ApprovedFile } from "../hooks/_approved.ts";
import { homeDir, resolvePath } from "../paths.ts";
import type { TeamApprovalSource, TeamApprovals } from "../trust/team-list.ts";
import { verifyCovered } from "./covered.ts";
import { readSettingsFile, type Settings } from "./settings.ts";
import { rootOnlyProblem, SYSTEM_SETTINGS_FILE } from "./system.ts";

/**
 * The team-list approval of a hook not approved locally: an entry on a verified list with the hook's exact
 * bytes whose covered files (its imports, the files beside it) are all as listed; else `undefined`.
 */
export async function teamApproved(
	team: TeamApprovals | undefined,
	check: { sha256: string; key: string },
	isEntry: boolean,
): Promise<TeamApproved | undefined> {
	if (!team) return undefined;
	const { absoluteFiles, teamEntries } = await import("../trust/team-list.ts");
	for (const entry of teamEntries(team, check.sha256)) {
		if (isEntry) return { files: undefined, approved: {}, list: entry.list }; // an agent entry's content holds everything it runs
		const approved = absoluteFiles(entry, check.key);
		const covered = verifyCovered(check.key, approved);
		if ("files" in covered) return { files: covered.files, approved, list: entry.list };
	}
	return undefined;
}

/** A hook approved through a team list: the covered files verified, their hashes, and the list (who approved it). */
export interface TeamApproved {
	files: Map<string, ApprovedFile> | undefined;
	approved: Record<string, string>;
	/** Path of the signed list that approves it. */
	list: string;
}

/**
 * The team lists the settings of the project at `root` trust (the user's and the system's, never the
 * project's), verified; `undefined` when none is named. Each list with a problem is a warning.
 */
export async function loadTeamFor(root: string, warnings: string[]): Promise<TeamApprovals | undefined> {
	const { loadSettings } = await import("./settings.ts");
	const sources = await teamSources((await loadSettings(root)).layers.user ?? {}, warnings);
	if (sources.length === 0) return undefined;
	const loaded = await (await import("../trust/team-list.ts")).loadTeamApprovals(sources);
	warnings.push(...loaded.warnings);
	return loaded;
}

/** The `teamApprovals` of the user's settings (paths against home) and of the root-owned system settings. */
export async function teamSources(user: Settings, warnings: string[]): Promise<TeamApprovalSource[]> {
	const home = homeDir();
	const sources = (user.teamApprovals ?? []).map((s) => ({
		...s,
		list: resolvePath(s.list, home),
		signature: s.signature === undefined ? undefined : resolvePath(s.signature, home),
	}));
	const problem = rootOnlyProblem(SYSTEM_SETTINGS_FILE);
	if (problem) warnings.push(`${SYSTEM_SETTINGS_FILE} ignored: ${problem} (it must be root's alone)`);
	else if (problem === undefined) {
		const system = await readSettingsFile(SYSTEM_SETTINGS_FILE);
		warnings.push(...system.warnings);
		for (const s of system.settings?.teamApprovals ?? [])
			sources.push({ ...s, list: resolvePath(s.list, "/"), signature: s.signature && resolvePath(s.signature, "/") });
	}
	return sources;
}
