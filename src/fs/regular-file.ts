import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Why {@link readRegularFile} refused: `not-a-file` (a directory, FIFO, socket or device) or `unreadable`. */
export class RegularFileError extends Error {
	override readonly name = "RegularFileError";
	constructor(
		readonly reason: "not-a-file" | "unreadable",
		/** What the file is instead (`a directory`), or the errno code that stopped the read. */
		readonly detail: string,
		path: string,
	) {
		super(reason === "not-a-file" ? `${path} is not a regular file (${detail})` : `Cannot read ${path} (${detail})`);
	}
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
		if (code === "EISDIR") throw new RegularFileError("not-a-file", "a directory", path);
		throw new RegularFileError("unreadable", code, path);
	}
	try {
		const info = fstatSync(fd);
		if (!info.isFile()) throw new RegularFileError("not-a-file", info.isDirectory() ? "a directory" : "a FIFO, socket or device", path);
		const bytes = new Uint8Array(info.size);
		let read = 0;
		while (read < bytes.length) {
			const n = readSync(fd, bytes, read, bytes.length - read, read);
			if (n === 0) break;
			read += n;
		}
		return read === bytes.length ? bytes : bytes.subarray(0, read);
	} catch (error) {
		if (error instanceof RegularFileError) throw error;
		throw new RegularFileError("unreadable", (error as NodeJS.ErrnoException).code ?? (error as Error).message, path);
	} finally {
		closeSync(fd);
	}
}
