import type { ModelApi, RecordedRequest, ToolStep } from "./types.ts";

/** A running scripted model server. */
export interface ModelServer {
	/** `http://127.0.0.1:<port>` (no trailing slash). */
	url: string;
	/** Every request received, in order. */
	requests: RecordedRequest[];
	/** The main turns (requests that offered tools). */
	main(): RecordedRequest[];
	stop(): void;
}

/** The request body as text, undoing the compressions clients use. */
async function bodyText(req: Request): Promise<string> {
	const bytes = new Uint8Array(await req.arrayBuffer());
	const encoding = req.headers.get("content-encoding") ?? "";
	if (encoding.includes("zstd")) return new TextDecoder().decode(Bun.zstdDecompressSync(bytes));
	if (encoding.includes("gzip")) return new TextDecoder().decode(Bun.gunzipSync(bytes));
	return new TextDecoder().decode(bytes);
}

/** Starts `api` on 127.0.0.1 (a free port), answering main turns with `steps` in order, then a final text. */
export function startModelServer(api: ModelApi, steps: readonly ToolStep[]): ModelServer {
	const requests: RecordedRequest[] = [];
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		idleTimeout: 30,
		async fetch(req) {
			const url = new URL(req.url);
			const text = req.method === "GET" || req.method === "HEAD" ? "" : await bodyText(req);
			let body: unknown = text;
			try {
				body = text ? JSON.parse(text) : null;
			} catch {}
			const record: RecordedRequest = {
				method: req.method,
				path: url.pathname,
				search: url.search,
				headers: Object.fromEntries(req.headers),
				body,
				kind: "other",
			};
			requests.push(record);
			try {
				return api.handle(record, steps);
			} catch (error) {
				return new Response(`mock ${api.name} failed: ${String(error)}`, { status: 500 });
			}
		},
	});
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		main: () => requests.filter((r) => r.kind === "main"),
		stop: () => server.stop(true),
	};
}
