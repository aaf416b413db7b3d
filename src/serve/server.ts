import { writeSync } from "node:fs";
import { withTimeout } from "../timeouts.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { dispatch } from "../host/dispatch.ts";
import { createHost, describeSkips, type Host, type HostOptions, reportedSkips } from "../host/host.ts";
import type { HookError } from "../hooks/types.ts";
import { errorMessage } from "../hooks/_describe.ts";
import {
	beforeAgentStartParams,
	commandParams,
	contextParams,
	emitParams,
	parseRequest,
	type RequestId,
	serveError,
	serveWireCode,
	idOfRefusedLine,
	type ServeResponse,
	toolCallParams,
} from "./requests.ts";
import { type HookWatcher, watchHost } from "./watch.ts";

/** Options of {@link createServer}. */
export interface ServerOptions {
	/** How hooks are loaded, as for the CLI (`fresh` and `interactive` are the server's business). */
	host: Omit<HostOptions, "fresh" | "interactive">;
	/** Receives each outgoing line (ending in `\n`); called once per response or notification. */
	write: (line: string) => void;
	/** Human diagnostics (skipped hooks, errors outside any request); default stderr. */
	log?: (line: string) => void;
	/** Let `tool_call` run even when a hook failed to load (default: such calls are blocked). */
	allowLoadErrors?: boolean;
	/** Reload when hook files, discovery folders or settings change (default true). */
	watch?: boolean;
	/** Quiet time after the last file event before an automatic reload, in ms (default 100). */
	debounceMs?: number;
	/** How long shutdown waits for in-flight requests (and `session_shutdown`), in ms (default 5000). */
	shutdownGraceMs?: number | undefined;
}

/** Default time shutdown waits for in-flight requests. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 5000;

/** A running server: feed it lines, then shut it down. */
export interface Server {
	/** Answers one request line; resolves once its response was written. Never rejects. */
	handleLine(line: string): Promise<void>;
	/** Answers a line that could not even be decoded with a `parse_error` (id null). */
	rejectLine(why: string): void;
	/** Re-imports the hooks, as the `reload` method does (without writing a response). */
	reload(): Promise<{ hooks: string[]; loadErrors: Host["loadErrors"] }>;
	/**
	 * Stops watching, waits for in-flight requests, emits `session_shutdown` once, closes the session.
	 * Waits at most the grace: resolves `{clean: false, unanswered}` when requests were still running
	 * (a hook that never settles), so the caller can exit non-zero. Idempotent.
	 */
	shutdown(): Promise<{ clean: boolean; unanswered: number }>;
}

/** The hooks of one load. Requests pin the generation they started on, so a reload never swaps hooks under them. */
interface Generation {
	host: Host;
	active: number;
	retired: boolean;
}

type Job = (host: Host, errors: HookError[]) => Promise<unknown>;

const message = errorMessage;
const summary = (host: Host) => ({ hooks: host.runner.getHookPaths(), loadErrors: host.loadErrors });

/** Creates a server and loads the hooks once; see `src/serve/index.ts` for the protocol. */
export async function createServer(options: ServerOptions): Promise<Server> {
	const { write } = options;
	// Synchronous: diagnostics reach stderr whole and in order, even when stderr is a file.
	const log = options.log ?? ((line: string) => void writeSync(2, line.endsWith("\n") ? line : `${line}\n`));
	const allowLoadErrors = options.allowLoadErrors ?? false;
	// Attributes each handler error to the request whose dispatch raised it, even with requests interleaved.
	const requestErrors = new AsyncLocalStorage<HookError[]>();

	let loadStarted = 0;
	const load = async (fresh: boolean, sessionFile: string | undefined): Promise<Generation> => {
		loadStarted = Date.now();
		const host = await createHost({ notify: log, ...options.host, sessionFile, fresh, interactive: false, collectErrors: false });
		host.runner.onError((error) => {
			const errors = requestErrors.getStore();
			if (errors) errors.push(error);
			else log(`hook error (${error.event}) ${error.hookPath}: ${error.error}`);
		});
		for (const line of describeSkips(host)) log(line);
		return { host, active: 0, retired: false };
	};
	const release = (gen: Generation) => {
		if (--gen.active === 0 && gen.retired) gen.host.close();
	};

	let current = await load(false, options.host.sessionFile);
	let reloading: Promise<unknown> | undefined;
	let closing: Promise<{ clean: boolean; unanswered: number }> | undefined;
	let shutdownEmitted = false;
	const inflight = new Set<Promise<void>>();
	const send = (response: ServeResponse | { method: string; params: unknown }) => write(`${JSON.stringify(response)}\n`);

	const reload = (): Promise<Generation> => {
		const previous = reloading;
		const next = (async () => {
			await previous;
			const gen = await load(true, current.host.sessionFile);
			const old = current;
			current = gen;
			old.retired = true;
			if (old.active === 0) old.host.close(); // else the last request still running on it closes it
			rewatch();
			return gen;
		})();
		// Requests wait on `reloading`, which never rejects: after a failed reload they use the old hooks.
		const settled = next.catch(() => undefined);
		reloading = settled;
		void settled.then(() => {
			if (reloading === settled) reloading = undefined;
		});
		return next;
	};

	let watcher: HookWatcher | undefined;
	const rewatch = () => {
		watcher?.close();
		if (options.watch === false || closing) return;
		const automatic = () => {
			if (closing) return;
			reload()
				.then((gen) => send({ method: "reloaded", params: summary(gen.host) }))
				.catch((error) => log(`automatic reload failed: ${message(error)}`));
		};
		watcher = watchHost(current.host, options.host.discovery, options.debounceMs, automatic);
		// A change while the load ran, before this watcher started, is reloaded now, not missed.
		if (watcher.changedSince(loadStarted)) automatic();
	};
	rewatch();

	const methods: Record<string, (params: unknown) => Job> = {
		emit(params) {
			const event = emitParams(params);
			return async (host, errors) => {
				if (event.type === "session_shutdown") shutdownEmitted = true;
				const { result } = await dispatch(host, event, allowLoadErrors);
				return { result: result ?? null, errors, loadErrors: host.loadErrors };
			};
		},
		toolCall(params) {
			const event = toolCallParams(params);
			return async (host) => {
				const { stopped, asked, result } = await dispatch(host, event, allowLoadErrors);
				if (stopped !== undefined) return { block: true, reason: stopped };
				const input = (result as { input?: unknown } | undefined)?.input;
				// An ask is a block marked ask (as gateToolCall's): a caller reading only `block` never runs it.
				if (asked !== undefined)
					return input === undefined ? { block: true, ask: true, reason: asked } : { block: true, ask: true, reason: asked, input };
				return input === undefined ? { block: false } : { block: false, input };
			};
		},
		context(params) {
			const messages = contextParams(params);
			return async (host, errors) => ({ messages: await host.runner.emitContext(messages), errors });
		},
		beforeAgentStart(params) {
			const { prompt, images } = beforeAgentStartParams(params);
			return async (host, errors) => ({ ...(await host.runner.emitBeforeAgentStart(prompt, images)), errors });
		},
		command(params) {
			const { name, args } = commandParams(params);
			return async (host, errors) => {
				const command = host.runner.getCommand(name);
				if (!command) {
					const known = [...new Set(host.runner.getRegisteredCommands().map((c) => `/${c.name}`))];
					throw serveError(
						"command_not_found",
						`no hook registers /${name}; ${known.length ? `registered: ${known.join(", ")}` : "no commands are registered"}`,
					);
				}
				try {
					await command.handler(args, host.runner.createCommandContext());
				} catch (error) {
					throw serveError("handler_error", `/${name} failed: ${message(error)}`);
				}
				return { ok: true, errors };
			};
		},
	};

	const run = async (method: string, params: unknown): Promise<unknown> => {
		if (method === "reload") {
			try {
				return summary((await reload()).host);
			} catch (error) {
				throw serveError("reload_failed", `reload failed, the previous hooks stay loaded: ${message(error)}`);
			}
		}
		const prepare = Object.hasOwn(methods, method) ? methods[method] : undefined;
		if (!prepare)
			throw serveError(
				"method_not_found",
				`unknown method ${JSON.stringify(method)}; methods: ${[...Object.keys(methods), "reload"].join(", ")}`,
			);
		const job = prepare(params);
		if (reloading) await reloading;
		const gen = current;
		gen.active++;
		const errors: HookError[] = [];
		try {
			return await requestErrors.run(errors, () => job(gen.host, errors));
		} finally {
			release(gen);
		}
	};

	const handle = async (line: string): Promise<void> => {
		let id: RequestId | null = null;
		try {
			const request = parseRequest(line);
			id = request.id;
			if (closing) throw serveError("shutting_down", "the server is shutting down and takes no new requests");
			const result = await run(request.method, request.params);
			send({ id, result: result ?? null });
		} catch (error) {
			try {
				send({
					id: id ?? idOfRefusedLine(line),
					error: { code: serveWireCode(error), message: message(error) },
				});
			} catch (writeError) {
				log(`could not answer request ${JSON.stringify(id)}: ${message(writeError)}`);
			}
		}
	};

	send({
		method: "ready",
		params: { ...summary(current.host), skipped: reportedSkips(current.host.skipped), warnings: current.host.warnings },
	});

	return {
		handleLine(line) {
			if (!line.trim()) return Promise.resolve();
			const pending = handle(line);
			inflight.add(pending);
			void pending.then(() => inflight.delete(pending));
			return pending;
		},
		rejectLine(why) {
			send({ id: null, error: { code: "parse_error", message: why } });
		},
		reload: async () => summary((await reload()).host),
		shutdown() {
			closing ??= (async () => {
				watcher?.close();
				const grace = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
				const drained = async () => {
					while (inflight.size > 0) await Promise.all(inflight);
					await reloading;
					const { host } = current;
					if (!shutdownEmitted) {
						shutdownEmitted = true;
						await requestErrors.exit(() => host.runner.emit({ type: "session_shutdown" }));
					}
				};
				// A grace of 0 still lets the event loop turn once (a timer cannot wait 0 ms "forever").
				const outcome = await withTimeout(
					drained().then(() => "done" as const),
					Math.max(1, grace),
					() => "expired" as const,
				);
				current.host.close();
				if (outcome === "done") return { clean: true, unanswered: 0 };
				log(`shutdown grace of ${grace} ms ran out with ${inflight.size} request(s) unanswered (a hook that never settles)`);
				return { clean: false, unanswered: inflight.size };
			})();
			return closing;
		},
	};
}
