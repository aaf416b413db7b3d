import { isModulePath } from "../hooks/module-files.ts";
import { filesBeside } from "./hook-folder.ts";
import { importGraph } from "./import-graph.ts";
import { readHookFile, sha256Hex, TrustError } from "./trust-store.ts";

/*
 * What an approval of a hook file covers besides the file itself, and how a load verifies it: a module's
 * import graph (src/trust/import-graph.ts), a shell hook's folder (src/trust/hook-folder.ts). The
 * approval stores each covered file's SHA-256, so a load reads and hashes just those files — the bytes
 * it then runs — instead of walking the graph again.
 */

/** One covered file as verified at load: the bytes that were hashed, and their SHA-256. */
export interface ApprovedFile {
	bytes: Uint8Array;
	sha256: string;
}

/** The files an approval of the hook at real path `path` (content `bytes`) covers besides it, by real path. */
export function coveredFiles(path: string, bytes: Uint8Array): Map<string, Uint8Array> {
	if (isModulePath(path)) return importGraph(path, bytes);
	return new Map(filesBeside(path).map((file) => [file.path, file.bytes]));
}

/** What {@link verifyCovered} found: the verified files, or the first one that differs from its approval. */
export type CoveredCheck = { files: Map<string, ApprovedFile> } | { changed: string };

/**
 * Checks the covered files of the approved hook at real path `path` against `approved` (path → SHA-256;
 * absent in approvals written before coverage, which then cover nothing). A module's files are read and
 * hashed (a file gone is changed; an import outside them is refused when it is resolved). A shell hook's
 * folder is listed again: a file added, removed or edited there is changed.
 */
export function verifyCovered(path: string, approved: Readonly<Record<string, string>> = {}): CoveredCheck {
	const files = new Map<string, ApprovedFile>();
	if (isModulePath(path)) {
		for (const [file, sha256] of Object.entries(approved)) {
			let bytes: Uint8Array;
			try {
				bytes = readHookFile(file);
			} catch (error) {
				if (error instanceof TrustError && error.code !== "HOOK_UNPINNABLE") return { changed: file };
				throw error;
			}
			const actual = sha256Hex(bytes);
			if (actual !== sha256) return { changed: file };
			files.set(file, { bytes, sha256: actual });
		}
		return { files };
	}
	const beside = filesBeside(path);
	for (const { path: file, bytes } of beside) {
		const sha256 = sha256Hex(bytes);
		if (approved[file] !== sha256) return { changed: file };
		files.set(file, { bytes, sha256 });
	}
	const gone = Object.keys(approved).find((file) => !files.has(file));
	return gone === undefined ? { files } : { changed: gone };
}

/** {@link coveredFiles} as an approval stores it: path → SHA-256, or `undefined` when there are none. */
export function coveredHashes(path: string, bytes: Uint8Array): Record<string, string> | undefined {
	const files = coveredFiles(path, bytes);
	if (files.size === 0) return undefined;
	return Object.fromEntries([...files].map(([file, content]) => [file, sha256Hex(content)]));
}
