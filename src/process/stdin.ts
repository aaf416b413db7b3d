import { XcshError } from "../errors.ts";
import { isTerminal } from "./tty.ts";

/** The most stdin the CLI reads (a hook payload, an event): a large file read is well below it, a runaway writer is not. */
export const MAX_PAYLOAD_BYTES = 32 * 1024 * 1024;

const tooLarge = (limit: number) => new XcshError("INVALID_INPUT", `stdin holds more than ${limit} bytes; refusing a payload that large`);

/**
 * Reads all of stdin synchronously, refusing more than `limit` bytes; `undefined` when stdin is a
 * terminal (nothing was piped), empty when it is closed.
 */
export function readStdinBytes(limit = MAX_PAYLOAD_BYTES): Uint8Array | undefined {
	if (handedOver) {
		const bytes = handedOver;
		handedOver = undefined;
		if (bytes instanceof Error) throw bytes;
		if (bytes.length > limit) throw tooLarge(limit);
		return bytes;
	}
	if (isTerminal(0)) return undefined;
	// Required here: the forwarding client (src/socket/forward.ts) shares this module and must not pay for node:fs.
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

let handedOver: Uint8Array | Error | undefined;

/**
 * Reads all of stdin for the forwarding client (src/socket/forward.ts) with Bun's own whole-file read:
 * no node:fs (loading it costs the client's start-up 1–2 ms) and no ReadableStream — what a bare
 * `Bun.stdin.json()` script pays. `undefined` when stdin is a terminal; never rejects: an `Error` when
 * stdin could not be read. What it read, or that error, is handed to the next {@link readStdinBytes}
 * (with its limit checked there), so a call that ends up running locally answers the same payload —
 * never what is left of a stream read halfway. The limit is checked after the read (a payload over it
 * is refused by the local run), so a writer that never stops is ended by the agent's own hook timeout.
 */
export async function readStdinAhead(): Promise<Uint8Array | undefined | Error> {
	if (isTerminal(0)) return undefined;
	let result: Uint8Array | Error;
	try {
		result = await Bun.stdin.bytes();
	} catch (error) {
		result = error instanceof Error ? error : new XcshError("INVALID_INPUT", String(error));
	}
	handedOver = result;
	return result;
}
