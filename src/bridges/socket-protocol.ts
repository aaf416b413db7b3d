/*
 * The protocol of `serve --socket` (src/serve/bridge-socket.ts) and the `bridge` client that forwards
 * to it (src/bridges/forward.ts), one connection per call:
 *
 *   client → server   {"agent":"claude","pwd":DIR,"env":{…},"event"?,"timeout"?,"allowLoadErrors"?,"length":N}\n
 *                     then the N bytes of the agent's payload
 *   server → client   {"accepted":true}\n      at once, before any hook runs
 *                     {"stdout":…,"stderr":[…]}\n   what `bridge <agent>` would print; then it closes
 *                 or  {"refused":REASON}\n     nothing ran (the client runs the call itself)
 *
 * Plain lines of JSON rather than HTTP: both ends are this program, and a client that only writes a
 * line and reads two costs the least to start (SPEC §11).
 */

/** The request line: what `bridge <agent>` was given besides its payload. */
export interface SocketRequest {
	agent: string;
	/** The caller's working directory (absolute). */
	pwd: string;
	/** The agent's project-directory variable, as the caller had it. */
	env: Record<string, string>;
	event?: string;
	timeout?: number;
	allowLoadErrors?: boolean;
	/** Bytes of payload after the line. */
	length: number;
}

/** The longest request line a server reads. */
export const MAX_REQUEST_LINE = 64 * 1024;

/** The request line and payload as one buffer. */
export function encodeRequest(request: SocketRequest, payload: Uint8Array): Uint8Array {
	const line = new TextEncoder().encode(`${JSON.stringify(request)}\n`);
	const out = new Uint8Array(line.length + payload.length);
	out.set(line);
	out.set(payload, line.length);
	return out;
}

/** A reply line. */
export function encodeLine(value: unknown): Uint8Array {
	return new TextEncoder().encode(`${JSON.stringify(value)}\n`);
}

/**
 * Writes `bytes` to a Bun socket as far as it takes them now; call again from `drain` with what is
 * returned until it is empty.
 */
export function writeSome(socket: { write(data: Uint8Array): number }, bytes: Uint8Array): Uint8Array {
	let rest = bytes;
	while (rest.length > 0) {
		const n = socket.write(rest);
		if (n <= 0) break;
		rest = rest.subarray(n);
	}
	return rest;
}
