import { XcshError } from "../errors.ts";
import { statOrUndefined } from "../fs/atomic-write.ts";

export { writeFileAtomic } from "../fs/atomic-write.ts";

/** Files above this size are refused by `read` and `edit`: they would not fit a model's context anyway. */
const MAX_TEXT_FILE_BYTES = 50 * 1024 * 1024;

/** Throws when `signal` is aborted, naming the tool. */
export function throwIfAborted(signal: AbortSignal | undefined, tool: string): void {
	if (signal?.aborted) throw new XcshError("ABORTED", `${tool} aborted`);
}

/**
 * Reads a UTF-8 text file for `read` / `edit`, with errors that name the path: missing, a directory,
 * too large, or binary (a NUL byte in the first 8 KB). A byte-order mark is kept, so a rewrite keeps it.
 * With `strict`, invalid UTF-8 is an error too: decoding it lossily and writing it back would corrupt it.
 */
export async function readTextFile(path: string, strict = false): Promise<string> {
	const info = await statOrUndefined(path);
	if (!info) throw new XcshError("FILE_NOT_FOUND", `File not found: ${path}`);
	if (info.isDirectory()) throw new XcshError("NOT_A_REGULAR_FILE", `${path} is a directory, not a file`);
	if (!info.isFile()) throw new XcshError("NOT_A_REGULAR_FILE", `${path} is not a regular file`);
	if (info.size > MAX_TEXT_FILE_BYTES)
		throw new XcshError(
			"INVALID_INPUT",
			`${path} is too large (${formatBytes(info.size)}; the limit is ${formatBytes(MAX_TEXT_FILE_BYTES)}); use the bash tool (head, tail, grep, sed -n) to inspect it`,
		);
	const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
	if (bytes.subarray(0, 8192).includes(0))
		throw new XcshError("INVALID_INPUT", `${path} looks like a binary file (it contains NUL bytes); only text files can be read or edited`);
	try {
		return new TextDecoder("utf-8", { fatal: strict, ignoreBOM: true }).decode(bytes);
	} catch {
		throw new XcshError("INVALID_INPUT", `${path} is not valid UTF-8 text; editing it would corrupt it (use the bash tool instead)`);
	}
}

/** `1536` → `1.5 KB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
	return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
