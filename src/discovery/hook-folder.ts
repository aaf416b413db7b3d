import { XcshError } from "../errors.ts";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "pathe";
import { readHookFile } from "../trust/trust-store.ts";

/*
 * What a script hook runs besides itself (docs/contract.md#trust): a shell script sources and runs the files
 * next to it (`. ./lib.sh`, `for f in ./*.sh`), and nothing in the script says which. So an approval of
 * a shell hook or of an agent config entry covers the named scripts and every file beside them in their
 * folder — its direct entries, hidden ones included, not its subfolders: a file added, removed or edited
 * there is a change. Keep hook scripts in a folder of their own; a script at the project root makes the
 * root's files part of its approval.
 */

/** A folder with more than this many files, or more bytes than {@link MAX_FOLDER_BYTES}, cannot be approved. */
export const MAX_FOLDER_FILES = 256;
/** Upper bound of the bytes beside one script that an approval hashes. */
export const MAX_FOLDER_BYTES = 16 * 1024 * 1024;

/**
 * The regular files directly in `script`'s folder (symlinks followed), sorted by name, each read once,
 * `script` itself excluded. A FIFO, socket or device there (which a script could read from) or a folder
 * past the limits is a `HOOK_UNPINNABLE` error; an unreadable folder is `HOOK_UNREADABLE`.
 */
export function filesBeside(script: string): Array<{ path: string; bytes: Uint8Array }> {
	const dir = dirname(script);
	let names: string[];
	try {
		names = readdirSync(dir).sort();
	} catch (error) {
		throw new XcshError("HOOK_UNREADABLE", `Cannot list ${dir}, the folder of ${script} (${(error as NodeJS.ErrnoException).code})`);
	}
	const files: Array<{ path: string; bytes: Uint8Array }> = [];
	let total = 0;
	for (const name of names) {
		const path = join(dir, name);
		if (path === script) continue;
		const info = statSync(path, { throwIfNoEntry: false });
		if (!info || info.isDirectory()) continue; // gone since the listing, a dangling link, a subfolder
		if (!info.isFile())
			throw new XcshError(
				"HOOK_UNPINNABLE",
				`${path}, beside ${script}, is a FIFO, socket or device; approval covers only regular files there`,
			);
		const bytes = readHookFile(path);
		total += bytes.byteLength;
		files.push({ path, bytes });
		if (files.length > MAX_FOLDER_FILES || total > MAX_FOLDER_BYTES)
			throw new XcshError(
				"HOOK_UNPINNABLE",
				`${dir} holds more than ${MAX_FOLDER_FILES} files or ${MAX_FOLDER_BYTES / 1024 / 1024} MB beside ${script}; approval covers the files beside a script, so move it into a folder of its own`,
			);
	}
	return files;
}
