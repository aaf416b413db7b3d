import type { ModelApi, RecordedRequest, ToolStep } from "./types.ts";

/** A running scripted model server. */
export interface ModelServer {
	/** `http://127.0.0.1:<port>` (no trailing slash). */
	url: string;
	/** Every request received, in order. */
	requests: RecordedRequest[];
	/** The main agent's turns (requests that offered tools, outside a subagent's conversation). */
	main(): RecordedRequest[];
	/** The subagent's turns (see {@link SubagentScript}). */
	sub(): RecordedRequest[];
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

/**
 * A second script for a subagent's conversation: a request whose body holds `marker` (the task the main
 * agent gave its subagent) but not `mainMarker` (in the user's prompt, which only the main conversation
 * holds) is the subagent's and is answered from `steps`.
 */
export interface SubagentScript {
	marker: string;
	mainMarker: string;
	steps: readonly ToolStep[];
}

/** Starts `api` on 127.0.0.1 (a free port), answering main turns with `steps` in order, then a final text. */
export function startModelServer(api: ModelApi, steps: readonly ToolStep[], subagent?: SubagentScript): ModelServer {
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
			const isSub = !!subagent && text.includes(subagent.marker) && !text.includes(subagent.mainMarker);
			if (isSub) record.sub = true;
			try {
				return api.handle(record, isSub && subagent ? subagent.steps : steps);
			} catch (error) {
				return new Response(`mock ${api.name} failed: ${String(error)}`, { status: 500 });
			}
		},
	});
	return {
		url: `http://127.0.0.1:${server.port}`,
		requests,
		main: () => requests.filter((r) => r.kind === "main" && !r.sub),
		sub: () => requests.filter((r) => r.kind === "main" && r.sub),
		stop: () => server.stop(true),
	};
}
