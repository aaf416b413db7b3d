/*
 * The protocol of `serve --socket` (src/serve/bridge-socket.ts) and the `bridge` client that forwards
 * to it (src/bridges/forward.ts), one connection per call:
 *
 *   client → server   {"agent":"claude","pwd":DIR,"env":{…},"event"?,"timeout"?,"allowLoadErrors"?,"length":N}\n
 *                     then the N bytes of the agent's payload
 *   server → client   {"ready":true}\n         the whole request is in; nothing runs until the client confirms
 *                 or  {"refused":REASON}\n     nothing ran (the client runs the call itself)
 *   client → server   {"go":true}\n            the server owns the call from here; sent at most once
 *   server → client   {"stdout":…,"stderr":[…],"verdict":V}\n   what `bridge <agent>` would print; then it closes
 *
 * One owner per call, under any load: the server runs a call's hooks only after it read the client's
 * `go`, and the client runs a call itself only when it never sent `go` (the `ready` came late, or
 * something else came). A client that leaves without `go` has nothing run for it. After `go` every
 * failure is answered by the client as a failed hook (fail closed), never by a second run.
 *
 * `verdict` is the guard's decision (`allow`, `deny`, `rewrite`) or `none` for an event that is not a
 * guard; an answer without one, or a `deny`/`rewrite` with nothing to print, is not an answer (an
 * empty reply is never taken for an allow). A server of the first version of this protocol answers
 * `{"accepted":true}` and runs at once: its hooks may be running, so the client waits, and fails the call
 * closed on its answer, which has no verdict.
 *
 * Plain lines of JSON rather than HTTP: both ends are this program, and a client that only writes a
 * line and reads two costs the least to start (SPEC §11).
 */

/** The client's confirmation, as sent. */
export const GO_LINE = '{"go":true}\n';

/** What an answer's `verdict` may be. */
export const VERDICTS = ["allow", "deny", "rewrite", "none"] as const;

/** An answer line's `verdict`. */
export type Verdict = (typeof VERDICTS)[number];

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
