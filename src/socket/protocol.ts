/*
 * The protocol of `serve --socket` (src/serve/bridge-socket.ts) and the `bridge` client that forwards
 * to it (src/socket/forward.ts), one connection per call:
 *
 *   client → server   {"agent":"claude","version":V,"pwd":DIR,"env":{…},"event"?,"timeout"?,"allowLoadErrors"?,"length":N}\n
 *                     then the N bytes of the agent's payload
 *   server → client   {"ready":true}\n         the whole request is in; nothing runs until the client confirms
 *                 or  {"refused":REASON,"version"?:V}\n   nothing ran (the client runs the call itself)
 *   client → server   {"go":true}\n            the server owns the call from here; sent at most once
 *   server → client   {"stdout":…,"stderr":[…],"verdict":V}\n   what `bridge <agent>` would print; then it closes
 *
 * One owner per call, under any load: the server runs a call's hooks only after it read the client's
 * `go`, and the client runs a call itself only when it never sent `go` (the `ready` came late, or
 * something else came). A client that leaves without `go` has nothing run for it. After `go` every
 * failure is answered by the client as a failed hook (fail closed), never by a second run.
 *
 * `verdict` is the guard's decision (`allow`, `deny`, `rewrite`, `ask`) or `none` for an event that is not a
 * guard; an answer without one, or a `deny`/`rewrite` with nothing to print, is not an answer (an
 * empty reply is never taken for an allow). A server of the first version of this protocol answers
 * `{"accepted":true}` and runs at once: its hooks may be running, so the client waits, and fails the call
 * closed on its answer, which has no verdict.
 *
 * A client and a server of different versions never talk: the request carries the client's version,
 * and a server of another version refuses it with its own (`version`) before anything runs. A server
 * older than the client then stops listening at once, so the client can start its own (autostart.ts).
 *
 * `{"status":true}\n` instead of a request is answered `{"status":{pid,version,startedAt,uptimeSeconds,
 * served,idleExitMinutes}}\n` (for `serve --status`), then the connection closes.
 *
 * Plain lines of JSON rather than HTTP: both ends are this program, and a client that only writes a
 * line and reads two costs the least to start (docs/contract.md#performance-budgets).
 */
import { isAbsolute } from "pathe";
import { isRecord, parseJsonText } from "../json.ts";
import { MAX_PAYLOAD_BYTES } from "../process/stdin.ts";

/** The client's confirmation, as sent. */
export const GO_LINE = '{"go":true}\n';

/** What an answer's `verdict` may be. */
export const VERDICTS = ["allow", "deny", "rewrite", "ask", "none"] as const;

/** An answer line's `verdict`. */
export type Verdict = (typeof VERDICTS)[number];

/** The request line: what `bridge <agent>` was given besides its payload. */
export interface SocketRequest {
	agent: string;
	/** The client's package version; a server of another version refuses the call. */
	version?: string;
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

/** What `{"status":true}` is answered with. */
export interface ServerStatus {
	pid: number;
	version: string;
	/** When the server started listening (ISO 8601). */
	startedAt: string;
	uptimeSeconds: number;
	/** Calls it ran to an answer since it started. */
	served: number;
	/** Minutes without a call after which it exits; 0: never. */
	idleExitMinutes: number;
}

/** The status request line. */
export const STATUS_LINE = '{"status":true}\n';

/**
 * Whether version `a` is newer than `b` (dot-separated numbers; a pre-release tag after `-` ranks
 * below its release, and two tags compare as text). Versions that are not numbers compare as text.
 */
export function newerVersion(a: string, b: string): boolean {
	const [mainA = "", tagA] = a.split("-", 2);
	const [mainB = "", tagB] = b.split("-", 2);
	const pa = mainA.split(".").map(Number);
	const pb = mainB.split(".").map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const x = pa[i] ?? 0;
		const y = pb[i] ?? 0;
		if (Number.isNaN(x) || Number.isNaN(y)) return a > b;
		if (x !== y) return x > y;
	}
	if (tagA === tagB) return false;
	if (tagA === undefined) return true;
	if (tagB === undefined) return false;
	return tagA > tagB;
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

/** Whether something accepts connections on the Unix socket at `path` (a server holds it). */
export function answering(path: string): Promise<boolean> {
	return new Promise((resolve) => {
		Bun.connect({
			unix: path,
			socket: {
				open(socket) {
					socket.end();
					resolve(true);
				},
				data() {},
				connectError: () => resolve(false),
			},
		}).catch(() => resolve(false));
	});
}

/** A request line, checked: the request and the environment it carries. */
export interface RequestCall {
	request: SocketRequest;
	env: Record<string, string>;
}

/** What the server needs of a request line, or the reason it cannot be taken (refused before `ready`). */
export function requestCall(line: string): RequestCall | string {
	let value: unknown;
	try {
		value = parseJsonText(line, "request");
	} catch (error) {
		return (error as Error).message;
	}
	if (!isRecord(value)) return "the request line is not a JSON object";
	const r = value as Partial<SocketRequest>;
	if (typeof r.agent !== "string") return "agent: expected a name";
	if (r.version !== undefined && typeof r.version !== "string") return "version: expected a string";
	if (typeof r.pwd !== "string" || !isAbsolute(r.pwd)) return "pwd: expected the caller's absolute working directory";
	if (!isRecord(r.env) || Object.values(r.env).some((v) => typeof v !== "string")) return "env: expected an object of strings";
	if (r.event !== undefined && typeof r.event !== "string") return "event: expected a string";
	if (r.timeout !== undefined && !(typeof r.timeout === "number" && Number.isFinite(r.timeout) && r.timeout > 0))
		return "timeout: expected a positive number of seconds";
	if (r.allowLoadErrors !== undefined && typeof r.allowLoadErrors !== "boolean") return "allowLoadErrors: expected a boolean";
	if (!Number.isSafeInteger(r.length) || (r.length as number) < 0 || (r.length as number) > MAX_PAYLOAD_BYTES)
		return `length: expected a byte count up to ${MAX_PAYLOAD_BYTES}`;
	return { request: r as SocketRequest, env: r.env as Record<string, string> };
}

/** A server's answer line. */
export interface ServerAnswer {
	stdout: string;
	stderr: string[];
	verdict: Verdict;
}

/**
 * What is wrong with a reply taken for an answer, `undefined` when it is one: the printed answer, its
 * stderr lines and a verdict; a `deny` or `rewrite` must print something (an empty reply is never an allow).
 */
export function notAnAnswer(value: unknown): string | undefined {
	const a = value as Partial<Record<keyof ServerAnswer, unknown>> | null;
	if (typeof a !== "object" || a === null || typeof a.stdout !== "string" || !Array.isArray(a.stderr)) return "its reply is not an answer";
	if (!a.stderr.every((line) => typeof line === "string")) return "its reply is not an answer";
	if (!VERDICTS.includes(a.verdict as Verdict)) return "its answer has no verdict (a serve --socket of an older version? restart it)";
	if ((a.verdict === "deny" || a.verdict === "rewrite" || a.verdict === "ask") && !a.stdout.trim())
		return `its ${a.verdict} answer is empty`;
	return undefined;
}
