import { approvalContent } from "../discovery/agent-config/approval.ts";
import { verifyCovered } from "../discovery/covered.ts";
import type { Hook } from "../discovery/hooks-capability.ts";
import { findProject } from "../discovery/project.ts";
import { registerHookDiscovery } from "../discovery/register.ts";
import { loadSettings } from "../discovery/settings.ts";
import { loadTeamFor, teamApproved } from "../discovery/team-approvals.ts";
import { errorMessage } from "../hooks/_describe.ts";
import type { TeamApprovals } from "../trust/team-list.ts";
import { isXcshError } from "../errors.ts";
import type { TrustStore } from "../trust/trust-store.ts";
import { testsBeside } from "./_test-files.ts";
import { cliError } from "./_shared.ts";

/*
 * What `trust` shows and approves: the project's hooks and the test files beside them (`xcsh-hooks test`
 * runs a project test file only once it is approved), each approved on this machine, through a signed
 * team list (src/trust/team-list.ts) — then by whom — or not.
 */

/** A project hook or test file; agent entries carry their settings file and the content an approval hashes. */
export interface ProjectFile {
	path: string;
	/** `hook`, or `test`: a test file beside a hook. */
	kind: "hook" | "test";
	file?: string | undefined;
	content?: (() => Uint8Array) | undefined;
}

/**
 * Every project-level hook of the project of `cwd` (each of its layers, src/discovery/project.ts):
 * discovered files, agent hook entries (`<settings file>#<key>`, approved as the entry plus the script
 * it names) and the files listed in the project's settings; then the test files beside the hook files.
 */
export async function projectFiles(cwd: string): Promise<ProjectFile[]> {
	const registry = registerHookDiscovery();
	const hooks = new Map<string, ProjectFile>();
	for (const layer of findProject(cwd).layers) {
		const { hookPaths } = await loadSettings(layer);
		const found = await registry.loadCapability<Hook>("hooks", { cwd: layer, includeDisabled: true });
		for (const h of found.items)
			if (h.level === "project")
				hooks.set(h.path, {
					path: h.path,
					kind: "hook",
					file: h.entry?.file,
					content: h.entry && (() => approvalContent(h.entry as NonNullable<Hook["entry"]>)),
				});
		for (const h of hookPaths) if (h.level === "project" && !hooks.has(h.path)) hooks.set(h.path, { path: h.path, kind: "hook" });
	}
	const files = [...hooks.values()].filter((h) => h.file === undefined).map((h) => h.path);
	const tests = testsBeside(files).filter((path) => !hooks.has(path));
	return [...hooks.values(), ...tests.map((path): ProjectFile => ({ path, kind: "test" }))];
}

/** One row of `trust`: the file, its state, and who approved it. */
export interface TrustStatus {
	path: string;
	kind: "hook" | "test";
	status: "approved" | "changed" | "not-approved" | "not-a-file" | "unpinnable" | "unreadable";
	/** Approved here (`local`) or by a signed team list (`team`, `teamList` naming it). */
	approvedBy?: "local" | "team";
	teamList?: string;
}

/**
 * The approval state of each file. Team lists (named in the user's or system settings, never the
 * project's) are read only when a file is not approved here; their problems are added to `warnings`.
 */
export async function trustStatus(store: TrustStore, cwd: string, files: ProjectFile[], warnings: string[]): Promise<TrustStatus[]> {
	let team: Promise<TeamApprovals | undefined> | undefined;
	const teamOnce = () => {
		team ??= loadTeamFor(findProject(cwd).root, warnings);
		return team;
	};
	return Promise.all(
		files.map(async ({ path, kind, content }): Promise<TrustStatus> => {
			try {
				const entry = content?.();
				const check = await store.check(path, entry);
				// A hook file's approval covers what it runs too (its imports, the files beside it); a test's pins the
				// test alone, as `xcsh-hooks test` reads it (the hook it tests is approved on its own).
				const covered = check.trusted && !entry && kind === "hook" ? verifyCovered(check.key, check.files) : undefined;
				if (check.trusted && !(covered && "changed" in covered)) return { path, kind, status: "approved", approvedBy: "local" };
				const shared = await teamApproved(await teamOnce(), check, Boolean(entry));
				if (shared) return { path, kind, status: "approved", approvedBy: "team", teamList: shared.list };
				// One word per state across list, trust and check: a file never approved is "not approved".
				return { path, kind, status: covered || check.reason === "changed" ? "changed" : "not-approved" };
			} catch (error) {
				// A file that cannot be read (or is not a file) is reported, not a crash of the whole listing.
				if (isXcshError(error, "HOOK_UNREADABLE", "HOOK_NOT_A_FILE", "HOOK_UNPINNABLE"))
					return {
						path,
						kind,
						status: error.code === "HOOK_NOT_A_FILE" ? "not-a-file" : error.code === "HOOK_UNPINNABLE" ? "unpinnable" : "unreadable",
					};
				throw cliError(errorMessage(error));
			}
		}),
	);
}
