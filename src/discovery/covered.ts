import { isXcshError, XcshError } from "../errors.ts";
import type { ApprovedFile } from "../hooks/_approved.ts";
import { isModulePath } from "../hooks/module-files.ts";
import { readHookFile, sha256Hex, type TrustEntry, type TrustStore, trustKey } from "../trust/trust-store.ts";
import { filesBeside } from "./hook-folder.ts";

/*
 * What an approval of a hook file covers besides the file itself (docs/contract.md#trust), and how a load
 * verifies it: a module's import graph (src/hooks/import-graph.ts), a shell hook's folder
 * (./hook-folder.ts). The approval stores each covered file's SHA-256 (`TrustEntry.files`), so a load
 * reads and hashes just those files — the bytes it then runs — instead of walking the graph again.
 */

/** The files an approval of the hook at real path `path` (content `bytes`) covers besides it, by real path. */
export function coveredFiles(path: string, bytes: Uint8Array): Map<string, Uint8Array> {
	if (!isModulePath(path)) return new Map(filesBeside(path).map((file) => [file.path, file.bytes]));
	// The graph walker (a parser, a resolver) is loaded when approving, never by a load's verification.
	const { importGraph } = require("../hooks/import-graph.ts") as typeof import("../hooks/import-graph.ts");
	try {
		return importGraph(path, bytes);
	} catch (error) {
		if (isXcshError(error, "IMPORT_GRAPH")) throw new XcshError("HOOK_UNPINNABLE", error.message);
		throw new XcshError("HOOK_UNREADABLE", (error as Error).message);
	}
}

/**
 * Approves the hook file at `path` with every file it covers (its import graph, the files beside it):
 * the hook is read once, and its graph is walked from those bytes. Returns the stored entry.
 */
export async function approveHook(store: TrustStore, path: string): Promise<TrustEntry> {
	const key = trustKey(path);
	const bytes = readHookFile(key);
	const files = coveredFiles(key, bytes);
	return store.approve(path, bytes, Object.fromEntries([...files].map(([file, content]) => [file, sha256Hex(content)])));
}

/** What {@link verifyCovered} found: the verified files, or the first one that differs from its approval. */
export type CoveredCheck = { files: Map<string, ApprovedFile> } | { changed: string };

/**
 * Checks the covered files of the approved hook at real path `path` against `approved` (path → SHA-256;
 * absent in approvals written before coverage, which then cover nothing). A module's files are read and
 * hashed (a file gone is changed; an import outside them is refused when it is loaded). A shell hook's
 * folder is listed again: a file added, removed or edited there is changed. A FIFO or device appearing
 * there is an `XcshError` `HOOK_UNPINNABLE`.
 */
export function verifyCovered(path: string, approved: Readonly<Record<string, string>> = {}): CoveredCheck {
	const files = new Map<string, ApprovedFile>();
	if (isModulePath(path)) {
		for (const [file, sha256] of Object.entries(approved)) {
			let bytes: Uint8Array;
			try {
				bytes = readHookFile(file);
			} catch {
				return { changed: file }; // gone, or no longer a regular file
			}
			if (sha256Hex(bytes) !== sha256) return { changed: file };
			files.set(file, { bytes, sha256 });
		}
		return { files };
	}
	for (const { path: file, bytes } of filesBeside(path)) {
		const sha256 = sha256Hex(bytes);
		if (approved[file] !== sha256) return { changed: file };
		files.set(file, { bytes, sha256 });
	}
	const gone = Object.keys(approved).find((file) => !files.has(file));
	return gone === undefined ? { files } : { changed: gone };
}

/** The message of a hook that fails closed because `file`, which it runs, changed since its approval. */
export function coveredChanged(file: string, hook: string): string {
	return `${file}, which ${hook} runs, changed since it was approved, so it fails closed; review it, then run: xcsh-hooks trust approve ${hook}`;
}
