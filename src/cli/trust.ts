import { approvalContent } from "../agent-hooks/approval.ts";
import { approveHook, verifyCovered } from "../discovery/covered.ts";
import type { Hook } from "../discovery/hooks-capability.ts";
import { registerHookDiscovery } from "../discovery/register.ts";
import { loadSettings } from "../discovery/settings.ts";
import { findProject } from "../discovery/project.ts";
import { relative } from "pathe";
import { resolvePath } from "../paths.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { TrustError, TrustStore } from "../trust/trust-store.ts";
import { narrowTable, shownPath } from "./_layout.ts";
import { CliError, EXIT_OK, projectArgs, printJson, projectDir, writeOut, defineCommand } from "./_shared.ts";

/**
 * Every project-level hook of the project of `cwd` (each of its layers, src/discovery/project.ts):
 * discovered files, agent hook entries (`<settings file>#<key>`, approved as the entry plus the script
 * it names) and the files listed in the project's settings.
 */
async function projectHooks(cwd: string): Promise<ProjectHook[]> {
	const registry = registerHookDiscovery();
	const hooks = new Map<string, ProjectHook>();
	for (const layer of findProject(cwd).layers) {
		const { hookPaths } = await loadSettings(layer);
		const found = await registry.loadCapability<Hook>("hooks", { cwd: layer, includeDisabled: true });
		for (const h of found.items)
			if (h.level === "project")
				hooks.set(h.path, {
					path: h.path,
					file: h.entry?.file,
					content: h.entry && (() => approvalContent(h.entry as NonNullable<Hook["entry"]>)),
				});
		for (const h of hookPaths) if (h.level === "project" && !hooks.has(h.path)) hooks.set(h.path, { path: h.path });
	}
	return [...hooks.values()];
}

/** A project hook; agent entries carry their settings file and the content an approval hashes. */
interface ProjectHook {
	path: string;
	file?: string | undefined;
	content?: (() => Uint8Array) | undefined;
}

/** The hooks a `trust approve|revoke` path names: a settings file names all of its agent entries. */
function named(given: string[], hooks: ProjectHook[]): ProjectHook[] {
	return given.flatMap((path) => {
		const entries = hooks.filter((h) => h.file === path);
		return entries.length > 0 ? entries : [hooks.find((h) => h.path === path) ?? { path }];
	});
}

async function status(store: TrustStore, cwd: string) {
	return Promise.all(
		(await projectHooks(cwd)).map(async ({ path, content }) => {
			try {
				const entry = content?.();
				const check = await store.check(path, entry);
				// A hook file's approval covers what it runs too (its imports, the files beside it).
				const covered = check.trusted && !entry && verifyCovered(check.key, check.files);
				if (covered && "changed" in covered) return { path, status: "changed" };
				// One word per state across list, trust and check: a hook never approved is "not approved".
				return { path, status: check.trusted ? "approved" : check.reason === "changed" ? "changed" : "not-approved" };
			} catch (error) {
				// A hook that cannot be read (or is not a file) is reported, not a crash of the whole listing.
				if (error instanceof TrustError && error.code !== "TRUST_FILE_CORRUPT" && error.code !== "TRUST_FILE_UNREADABLE")
					return {
						path,
						status: error.code === "HOOK_NOT_A_FILE" ? "not-a-file" : error.code === "HOOK_UNPINNABLE" ? "unpinnable" : "unreadable",
					};
				throw new CliError(errorMessage(error));
			}
		}),
	);
}

/** What an approval covers besides the hook (its imports, the files beside it), so the user knows what they approved. */
function coversText(covers: string[] | undefined, cwd: string): string {
	if (!covers?.length) return "";
	const shown = covers.map((path) => (relative(cwd, path).startsWith("..") ? path : relative(cwd, path)));
	return ` with the ${covers.length === 1 ? "file" : `${covers.length} files`} it runs: ${shown.join(", ")}`;
}

/** The actions of `trust <action>` (completion offers them; a typo gets the nearest). */
export const TRUST_ACTIONS = ["approve", "revoke", "export", "sign", "keygen"] as const;

export const trustCommand = defineCommand({
	meta: {
		name: "trust",
		description: "Show or change the approval of the project's hooks",
		details: "Show the project's hooks and their approval; `trust approve|revoke <path…>` (or --all) changes it",
	},
	args: {
		action: {
			type: "positional",
			required: false,
			description: "approve | revoke | export | sign | keygen (omit to show the status)",
		},
		all: { type: "boolean", description: "With approve/revoke: every project hook of --cwd" },
		key: { type: "string", description: "With sign: the Ed25519 private key (PKCS#8 PEM)", valueHint: "FILE" },
		out: { type: "string", description: "With export: the list to write (default stdout); keygen: the key file", valueHint: "FILE" },
		...projectArgs,
	},
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const store = new TrustStore();
		const action = args.action;
		if (action === undefined) {
			const hooks = await status(store, cwd);
			if (args.json) {
				await printJson({ trustFile: store.file, hooks, approved: await store.list() });
				return EXIT_OK;
			}
			const rows = hooks.map((h) => ({
				cells: [h.status === "approved" ? "✓" : "✗", h.status.replaceAll("-", " "), shownPath(h.path, cwd)],
			}));
			const lines = rows.length ? narrowTable(rows) : [];
			if (hooks.some((h) => h.status !== "approved")) lines.push("Approve with: xcsh-hooks trust approve <path> (or --all)");
			await writeOut(lines.join("\n") || "This project has no project-level hooks.");
			return EXIT_OK;
		}
		if (action === "export" || action === "sign" || action === "keygen") {
			// Loaded only for these actions: Web Crypto and the list format are nothing the others need.
			const team = await import("./trust-team.ts");
			const out = args.out === undefined ? undefined : resolvePath(args.out, cwd);
			if (action === "export") return team.trustExport(store, await projectHooks(cwd), cwd, out, args.json);
			if (action === "keygen") return team.trustKeygen(out, args.json);
			const list = (args._ as string[]).filter((p) => p !== action)[0];
			return team.trustSign(args.key && resolvePath(args.key, cwd), list && resolvePath(list, cwd), args.json);
		}
		if (action !== "approve" && action !== "revoke") {
			const near = (await import("../suggest.ts")).didYouMean(action, TRUST_ACTIONS);
			throw new CliError(
				`unknown action "${action}"${near || "; expected approve, revoke, export, sign or keygen (or nothing, to show the status)"}`,
			);
		}
		const given = (args._ as string[]).filter((p) => p !== action).map((p) => resolvePath(p, cwd));
		if (given.length === 0 && !args.all) throw new CliError(`trust ${action} needs hook paths, or --all for every project hook`);
		const hooks = await projectHooks(cwd);
		const paths = args.all ? hooks : named(given, hooks);
		const done: Array<{ path: string; sha256?: string; changed: boolean; covers?: string[] }> = [];
		for (const { path, content } of paths) {
			if (action === "approve") {
				const entry = await Promise.resolve()
					.then(() => (content ? store.approve(path, content()) : approveHook(store, path)))
					.catch((error: unknown) => {
						throw new CliError(errorMessage(error));
					});
				done.push({ path, sha256: entry.sha256, changed: true, covers: Object.keys(entry.files ?? {}) });
			} else done.push({ path, changed: await store.revoke(path) });
		}
		if (args.json) await printJson({ action, hooks: done });
		else
			await writeOut(
				done.map((d) => (d.changed ? `${action}d ${d.path}${coversText(d.covers, cwd)}` : `${d.path} was not approved`)).join("\n") ||
					"Nothing to do.",
			);
		return EXIT_OK;
	},
});
