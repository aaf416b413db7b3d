import { isTerminal } from "./tty.ts";

/** The most stdin the CLI reads (a hook payload, an event): a large file read is well below it, a runaway writer is not. */
export const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;

const tooLarge = (limit: number) => new Error(`stdin holds more than ${limit} bytes; refusing a payload that large`);

/**
 * Reads all of stdin synchronously, refusing more than `limit` bytes; `undefined` when stdin is a
 * terminal (nothing was piped), empty when it is closed.
 */
export function readStdinBytes(limit = MAX_PAYLOAD_BYTES): Uint8Array | undefined {
	if (handedOver) {
		const bytes = handedOver;
		handedOver = undefined;
		if (bytes.length > limit) throw tooLarge(limit);
		return bytes;
	}
	if (isTerminal(0)) return undefined;
	// Required here: the forwarding client (src/bridges/forward.ts) shares this module and must not pay for node:fs.
	const { readSync } = require("node:fs") as typeof import("node:fs");
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
		if (total > limit) throw tooLarge(limit);
		chunks.push(Buffer.from(chunk.subarray(0, n)));
	}
	return Buffer.concat(chunks, total);
}

let handedOver: Uint8Array | undefined;

/**
 * Reads all of stdin with Bun's own whole-file read (no node:fs, no ReadableStream: ≈0.9 ms less on
 * the forwarding client's start-up than a stream reader — what a bare `Bun.stdin.json()` script
 * costs), for the forwarding client; `undefined` when stdin is a terminal. The limit is checked after
 * the read (a payload over it is refused by the local run), so a writer that never stops is ended by
 * the agent's own hook timeout rather than by this read. What it read is handed to the next
 * {@link readStdinBytes} (with its limit checked there), so a call that ends up running locally reads
 * the same payload.
 */
export async function readStdinAhead(): Promise<Uint8Array | undefined> {
	if (isTerminal(0)) return undefined;
	const bytes = await Bun.stdin.bytes();
	handedOver = bytes;
	return bytes;
}
