import { readSync } from "node:fs";
import { isTerminal } from "./tty.ts";

/** The most stdin the CLI reads (a hook payload, an event): a large file read is well below it, a runaway writer is not. */
export const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;

/**
 * Reads all of stdin synchronously, refusing more than `limit` bytes; `undefined` when stdin is a
 * terminal (nothing was piped), empty when it is closed.
 */
export function readStdinBytes(limit = MAX_PAYLOAD_BYTES): Uint8Array | undefined {
	if (isTerminal(0)) return undefined;
	const chunks: Buffer[] = [];
	let total = 0;
	const chunk = Buffer.allocUnsafe(64 * 1024);
	for (;;) {
		let n: number;
		try {
			n = readSync(0, chunk, 0, chunk.length, null);
		} catch (error) {
			if ((error as { code?: string }).code === "EAGAIN") continue;
			if ((error as { code?: string }).code === "EOF") break;
			if (total === 0) return new Uint8Array(0); // stdin closed
			throw error;
		}
		if (n === 0) break;
		total += n;
		if (total > limit) throw new Error(`stdin holds more than ${limit} bytes; refusing a payload that large`);
		chunks.push(Buffer.from(chunk.subarray(0, n)));
	}
	return Buffer.concat(chunks, total);
}
