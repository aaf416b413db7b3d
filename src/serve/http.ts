import { XcshError } from "../errors.ts";
import { MAX_PAYLOAD_BYTES } from "../process/stdin.ts";
import { bridgeNames, loadBridge } from "../agent-call/index.ts";
import { answerPooled } from "./pooled-call.ts";
import { createHostPool, type HostPool } from "./http-hosts.ts";
import { authorized } from "./http-token.ts";

/*
 * `serve --http`: Claude Code's `type: "http"` hooks (docs/agents/claude.md) POST the same JSON a command
 * hook reads on stdin, and read a 2xx body as that hook's stdout. So a request is answered with the
 * body `bridge <agent>` would print — by the same code (`runBridge`), with the hooks already loaded
 * (src/serve/http-hosts.ts). `POST /` and `POST /claude` are Claude; `POST /<agent>` the other
 * bridges (`?event=NAME` for payloads that name no event: it never overrides the event a payload
 * names, and one that contradicts it is answered as a denied tool call). Every request must carry
 * `Authorization: Bearer <token>`; without it the answer is 401 and nothing runs.
 */

/** Options of {@link startHttpServer}. */
export interface HttpServerOptions {
	/** Address to listen on (the CLI allows only loopback addresses unless `--allow-remote`). */
	hostname: string;
	/** Port; 0 picks a free one (see {@link HttpServer.url}). */
	port: number;
	/** The bearer token every request must carry. */
	token: string;
	hookPaths: string[];
	discovery: boolean;
	/** `--cwd`: one project for every request instead of the directory the payload names. */
	cwd?: string | undefined;
	allowLoadErrors?: boolean;
	/** Reload hooks when their files change (default true). */
	watch?: boolean;
	/** Quiet time after a file event before hooks reload, in ms (default 100). */
	debounceMs?: number;
	/** Diagnostics (hook errors, skipped hooks, reloads); default: none. */
	log?: (line: string) => void;
	/** Hosts to answer with (shared with `--socket`); default: a pool of its own. */
	pool?: HostPool;
}

/** A running server. */
export interface HttpServer {
	/** `http://host:port/`, with the port actually bound. */
	url: string;
	port: number;
	pool: HostPool;
	/** Stops listening, lets running requests finish, closes the hooks. */
	stop(): Promise<void>;
}

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
	new Response(`${body}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

/** Starts listening; resolves once the port is bound. */
export function startHttpServer(options: HttpServerOptions): HttpServer {
	const log = options.log ?? (() => {});
	const pool =
		options.pool ??
		createHostPool({
			hookPaths: options.hookPaths,
			discovery: options.discovery,
			watch: options.watch,
			debounceMs: options.debounceMs,
			log,
		});

	const answer = async (request: Request): Promise<Response> => {
		// Before anything else: an unauthenticated request reads no body and runs nothing.
		if (!authorized(request.headers.get("authorization"), options.token))
			return text(401, "unauthorized: send Authorization: Bearer <the token in ~/.xcsh/agent/http-token>", {
				"www-authenticate": 'Bearer realm="xcsh-hooks"',
			});
		const url = new URL(request.url);
		const name = url.pathname === "/" ? "claude" : url.pathname.slice(1).replace(/\/$/, "");
		const agent = await loadBridge(name);
		if (!agent) return text(404, `no agent at ${url.pathname}; POST to / (Claude Code) or /<agent>: ${bridgeNames().join(", ")}`);
		if (request.method !== "POST") return text(405, `${request.method} ${url.pathname}: POST the hook's JSON payload`, { allow: "POST" });
		const length = Number(request.headers.get("content-length") ?? 0);
		if (length > MAX_PAYLOAD_BYTES) return text(413, `payload larger than ${MAX_PAYLOAD_BYTES} bytes`);
		const body = new Uint8Array(await request.arrayBuffer());
		const result = await answerPooled(pool, {
			agent,
			body,
			event: url.searchParams.get("event") ?? undefined,
			// A URL never overrides the event the payload names (see BridgeOptions.eventIsFallback).
			eventIsFallback: true,
			cwd: options.cwd,
			hookPaths: options.hookPaths,
			discovery: options.discovery,
			allowLoadErrors: options.allowLoadErrors,
			// The server's own environment is not the agent's: the project is the one the payload names.
			env: {},
		});
		for (const line of result.stderr) log(line);
		return new Response(result.stdout, { status: 200, headers: { "content-type": "application/json" } });
	};

	const server = Bun.serve({
		hostname: options.hostname,
		port: options.port,
		development: false,
		maxRequestBodySize: MAX_PAYLOAD_BYTES,
		async fetch(request) {
			try {
				return await answer(request);
			} catch (error) {
				// runBridge answers every failure itself; this is the server failing. A 5xx is a hook
				// failure to Claude, which blocks guard events (onFailure: "block").
				log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
				return text(500, "xcsh-hooks serve --http: internal error");
			}
		},
	});
	const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
	const port = server.port ?? options.port;
	return {
		url: `http://${host}:${port}/`,
		port,
		pool,
		async stop() {
			await server.stop();
			if (!options.pool) pool.close(); // a shared pool is its owner's to close
		},
	};
}

/** Whether `hostname` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(hostname: string): boolean {
	const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
	if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
	const v4 = h.startsWith("::ffff:") ? h.slice(7) : h;
	const parts = v4.split(".");
	return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** `HOST:PORT` (`[::1]:PORT` for IPv6) → its parts; throws naming what would be accepted. */
export function parseListenAddress(value: string): { hostname: string; port: number } {
	const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(value.trim());
	const port = match ? Number(match[3]) : Number.NaN;
	if (!match || port > 65535)
		throw new XcshError(
			"INVALID_OPTION",
			`--http ${value}: expected HOST:PORT, e.g. 127.0.0.1:8377 (port 0 picks a free one; IPv6 as [::1]:8377)`,
		);
	return { hostname: (match[1] ?? match[2]) as string, port };
}
