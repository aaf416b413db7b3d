import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { isXcshError, XcshError } from "../errors.ts";

/**
 * Why {@link readRegularFile} refused: `NOT_A_REGULAR_FILE` (a directory, FIFO, socket or device) or
 * `FILE_UNREADABLE`; `detail` is what the file is instead (`a directory`) or the errno code that stopped the read.
 */
function refused(notAFile: boolean, detail: string, path: string): XcshError {
	return notAFile
		? new XcshError("NOT_A_REGULAR_FILE", `${path} is not a regular file (${detail})`, { file: path, detail })
		: new XcshError("FILE_UNREADABLE", `Cannot read ${path} (${detail})`, { file: path, detail });
}

/**
 * Reads a file once, refusing anything that is not a regular file: a directory would be imported as
 * its `index.ts`, a FIFO or device would block or change between reads. Opened non-blocking, so a FIFO
 * is refused instead of waited on. What was read is what is returned (a file shrinking meanwhile is cut).
 */
export function readRegularFile(path: string): Uint8Array {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
		if (code === "EISDIR") throw refused(true, "a directory", path);
		throw refused(false, code, path);
	}
	try {
		const info = fstatSync(fd);
		if (!info.isFile()) throw refused(true, info.isDirectory() ? "a directory" : "a FIFO, socket or device", path);
		const bytes = new Uint8Array(info.size);
		let read = 0;
		while (read < bytes.length) {
			const n = readSync(fd, bytes, read, bytes.length - read, read);
			if (n === 0) break;
			read += n;
		}
		return read === bytes.length ? bytes : bytes.subarray(0, read);
	} catch (error) {
		if (isXcshError(error, "NOT_A_REGULAR_FILE")) throw error;
		throw refused(false, (error as NodeJS.ErrnoException).code ?? (error as Error).message, path);
	} finally {
		closeSync(fd);
	}
}
