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
): Promise<{ files: Map<string, ApprovedFile> | undefined; approved: Record<string, string> } | undefined> {
	if (!team) return undefined;
	const { absoluteFiles, teamEntries } = await import("../trust/team-list.ts");
	for (const entry of teamEntries(team, check.sha256)) {
		if (isEntry) return { files: undefined, approved: {} }; // an agent entry's content holds everything it runs
		const approved = absoluteFiles(entry, check.key);
		const covered = verifyCovered(check.key, approved);
		if ("files" in covered) return { files: covered.files, approved };
	}
	return undefined;
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
