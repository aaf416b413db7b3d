// Trust verdicts of project hook candidates: what planHooks (discover.ts) lets run, skips or fails closed.
import { XcshError } from "../errors.ts";
import type { AgentHookEntry } from "../agents/_shared/entry.ts";
import type { Hook } from "./hooks-capability.ts";
import type { TeamApprovals } from "../trust/team-list.ts";
import { coveredChanged, verifyCovered } from "./covered.ts";
import { teamApproved } from "./team-approvals.ts";
import { isXcshError } from "../errors.ts";
import type { TrustStore } from "../trust/trust-store.ts";
import type { ApprovedSource } from "../hooks/_approved.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { isModulePath, type ShellHookSpec } from "../hooks/shell-hook.ts";
import type { HookSource } from "../hooks/types.ts";

/** A project hook that does not run as it is: never approved, changed since, or unverifiable. */
export interface SkippedHook {
	path: string;
	/**
	 * `unknown`: never approved (skipped with a warning); `changed`: edited since it was approved, and
	 * `unverifiable`: its approval cannot be checked — both fail closed (a load error, which blocks `tool_call`).
	 */
	reason: "unknown" | "changed" | "unverifiable";
	/** Hash of the file's current content (absent when it could not be checked). */
	sha256?: string;
	/** The command that approves it. */
	approve: string;
}

/** One hook that may run, before trust and keys decide. */
export interface Candidate {
	path: string;
	source: HookSource;
	shell?: ShellHookSpec | undefined;
	/** Discovered hooks: the capability key (first wins) and extension id (can be disabled). */
	hook?: Hook;
	/** Why the candidate is out before trust and keys are considered (disabled by settings). */
	disabled?: string;
	/** An agent's command hook entry: `path` is `<settings file>#<key>`, approved as that entry plus its script. */
	entry?: AgentHookEntry;
	/** The project layer it was found in, when it is an outer one (src/discovery/project.ts); absent: the nearest. */
	layer?: number;
}

/** What trust decided of one project candidate. */
export type Verdict =
	| { run: true; source: ApprovedSource /** The team list that approves it, when no local approval does. */; by?: string }
	| { run: false; skip: SkippedHook }
	| { run: false; error: string; skip?: SkippedHook };

/** The check before each run of an approved shell hook: the files beside it are still the approved ones. */
function recheckBeside(realPath: string, hook: string, files: Readonly<Record<string, string>> | undefined): () => void {
	return () => {
		const again = verifyCovered(realPath, files);
		if ("changed" in again) throw new XcshError("HOOK_CHANGED", coveredChanged(again.changed, hook));
	};
}

/**
 * Trust verdicts of the project-level candidates. What a trusted hook runs is the bytes that were
 * hashed. A hook that changed since its approval, or whose approval or content cannot be checked
 * (an unreadable trust store, a directory or FIFO where a file should be), fails closed.
 */
export async function verdicts(
	candidates: Candidate[],
	store: TrustStore,
	warnings: string[],
	team: () => Promise<TeamApprovals | undefined>,
): Promise<Map<Candidate, Verdict>> {
	const result = new Map<Candidate, Verdict>();
	let storeProblem: string | undefined;
	await Promise.all(
		candidates
			.filter((c) => c.source.level === "project" && !c.disabled)
			.map(async (candidate) => {
				// An agent entry is approved with its settings file (every entry of that file at once).
				const approve = `xcsh-hooks trust approve ${candidate.entry?.file ?? candidate.path}`;
				try {
					// The approval module is loaded only when there are agent config entries to check.
					const content =
						candidate.entry &&
						(require("./agent-config/approval.ts") as typeof import("./agent-config/approval.ts")).approvalContent(candidate.entry);
					const check = await store.check(candidate.path, content);
					// What the approval covers besides the file (its imports, the files beside it) must be as approved
					// too; an agent entry's content already holds all of it (src/discovery/agent-config/approval.ts).
					const covered = check.trusted && !content ? verifyCovered(check.key, check.files) : undefined;
					if (check.trusted && !(covered && "changed" in covered)) {
						const files = covered && "files" in covered ? covered.files : undefined;
						const source: ApprovedSource = { bytes: check.bytes, sha256: check.sha256, realPath: check.key, files };
						if (!content && !isModulePath(check.key)) source.recheck = recheckBeside(check.key, candidate.path, check.files);
						return result.set(candidate, { run: true, source });
					}
					const shared = await teamApproved(await team(), check, Boolean(content));
					if (shared) {
						const source: ApprovedSource = { bytes: check.bytes, sha256: check.sha256, realPath: check.key, files: shared.files };
						if (!content && !isModulePath(check.key)) source.recheck = recheckBeside(check.key, candidate.path, shared.approved);
						return result.set(candidate, { run: true, source, by: shared.list });
					}
					const reason = covered ? "changed" : (check.reason ?? "unknown");
					const skip: SkippedHook = { path: candidate.path, reason, sha256: check.sha256, approve };
					if (skip.reason === "unknown") return result.set(candidate, { run: false, skip });
					const error =
						covered && "changed" in covered
							? coveredChanged(covered.changed, candidate.path)
							: `project hook changed since it was approved, so it fails closed; review it, then run: ${approve}`;
					result.set(candidate, { run: false, error, skip });
				} catch (error) {
					const message = errorMessage(error);
					if (isXcshError(error, "HOOK_UNREADABLE", "HOOK_NOT_A_FILE", "HOOK_UNPINNABLE"))
						return result.set(candidate, { run: false, error: `Failed to load hook: ${message}` });
					storeProblem = message;
					const skip: SkippedHook = { path: candidate.path, reason: "unverifiable", approve };
					result.set(candidate, { run: false, error: `project hook not run: its approval cannot be verified (${message})`, skip });
				}
			}),
	);
	if (storeProblem) warnings.push(`project hooks fail closed: the trust store cannot be used (${storeProblem})`);
	return result;
}
