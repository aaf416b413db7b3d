import { approveHook } from "../discovery/covered.ts";
import { relative } from "pathe";
import { resolvePath } from "../paths.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { narrowTable, shownPath } from "./_layout.ts";
import { type ProjectFile, projectFiles, trustStatus } from "./_trust-status.ts";
import { cliError, EXIT_OK, projectArgs, printJson, projectDir, writeErr, writeOut, defineCommand } from "./_shared.ts";

/** The files a `trust approve|revoke` path names: a settings file names all of its agent entries. */
function named(given: string[], files: ProjectFile[]): ProjectFile[] {
	return given.flatMap((path) => {
		const entries = files.filter((h) => h.file === path);
		return entries.length > 0 ? entries : [files.find((h) => h.path === path) ?? { path, kind: "hook" as const }];
	});
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
		description: "Show or change the approval of the project's hooks and their tests",
		details:
			"Show the project's hooks and the test files beside them, and who approved each; `trust approve|revoke <path…>` (or --all) changes it",
	},
	args: {
		action: {
			type: "positional",
			required: false,
			description: "approve | revoke | export | sign | keygen (omit to show the status)",
		},
		all: { type: "boolean", description: "With approve/revoke: every project hook of --cwd and the test files beside them" },
		key: { type: "string", description: "With sign: the Ed25519 private key (PKCS#8 PEM)", valueHint: "FILE" },
		out: { type: "string", description: "With export: the list to write (default stdout); keygen: the key file", valueHint: "FILE" },
		...projectArgs,
	},
	async run({ args }) {
		const cwd = projectDir(args.cwd);
		const store = new TrustStore();
		const action = args.action;
		if (action === undefined) {
			const warnings: string[] = [];
			const all = await trustStatus(store, cwd, await projectFiles(cwd), warnings);
			for (const warning of warnings) await writeErr(`warning: ${warning}`);
			const drop = ({ kind: _kind, ...rest }: (typeof all)[number]) => rest;
			if (args.json) {
				const hooks = all.filter((f) => f.kind === "hook").map(drop);
				const tests = all.filter((f) => f.kind === "test").map(drop);
				await printJson({ trustFile: store.file, hooks, tests, approved: await store.list() });
				return EXIT_OK;
			}
			const rows = all.map((h) => ({
				cells: [h.status === "approved" ? "✓" : "✗", h.status.replaceAll("-", " "), shownPath(h.path, cwd)],
				more: h.teamList ? [`approved by the team list ${shownPath(h.teamList, cwd)}`] : [],
			}));
			const lines = rows.length ? narrowTable(rows) : [];
			if (all.some((h) => h.status !== "approved")) lines.push("Approve with: xcsh-hooks trust approve <path> (or --all)");
			await writeOut(lines.join("\n") || "This project has no project-level hooks.");
			return EXIT_OK;
		}
		if (action === "export" || action === "sign" || action === "keygen") {
			// Loaded only for these actions: Web Crypto and the list format are nothing the others need.
			const team = await import("./trust-team.ts");
			const out = args.out === undefined ? undefined : resolvePath(args.out, cwd);
			if (action === "export") return team.trustExport(store, await projectFiles(cwd), cwd, out, args.json);
			if (action === "keygen") return team.trustKeygen(out, args.json);
			const list = (args._ as string[]).filter((p) => p !== action)[0];
			return team.trustSign(args.key && resolvePath(args.key, cwd), list && resolvePath(list, cwd), args.json);
		}
		if (action !== "approve" && action !== "revoke") {
			const near = (await import("../suggest.ts")).didYouMean(action, TRUST_ACTIONS);
			throw cliError(
				`unknown action "${action}"${near || "; expected approve, revoke, export, sign or keygen (or nothing, to show the status)"}`,
			);
		}
		const given = (args._ as string[]).filter((p) => p !== action).map((p) => resolvePath(p, cwd));
		if (given.length === 0 && !args.all) throw cliError(`trust ${action} needs hook paths, or --all for every project hook`);
		const files = await projectFiles(cwd);
		const paths = args.all ? files : named(given, files);
		const done: Array<{ path: string; sha256?: string; changed: boolean; covers?: string[] }> = [];
		for (const { path, content } of paths) {
			if (action === "approve") {
				const entry = await Promise.resolve()
					.then(() => (content ? store.approve(path, content()) : approveHook(store, path)))
					.catch((error: unknown) => {
						throw cliError(errorMessage(error));
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
