import { AsyncLocalStorage } from "node:async_hooks";
import { DeferredSessionView } from "../session/deferred-view.ts";
import { type BridgeHost, type BridgeHostRequest, type BridgeHostSource, bridgeHostOptions } from "../agent-call/run.ts";
import { agentSessionView } from "../agent-call/transcript.ts";
import { createHost, describeSkips, type Host } from "../host/host.ts";
import type { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import { type HookWatcher, watchHost } from "./watch.ts";

/*
 * `serve --http` answers every request with hooks that are already loaded: one host per project
 * directory and agent session (the session file and `ctx.sessionManager` belong to the session),
 * created on its first request and reused after. What a request must see of its own — its
 * notifications, its hook errors, the agent transcript it names — is routed through an
 * AsyncLocalStorage, so concurrent requests on one host never mix. A change to a host's hook
 * files, discovery folders or settings retires it; the next request loads the hooks afresh.
 */

/** Options of {@link createHostPool}. */
export interface HostPoolOptions {
	/** `--hook` paths (the user's own choice, never subject to trust). */
	hookPaths: string[];
	discovery: boolean;
	/** Reload on file changes (default true). */
	watch?: boolean | undefined;
	/** Quiet time after the last file event before a host is retired, in ms (default 100). */
	debounceMs?: number | undefined;
	/** Most hosts kept (least recently used idle ones go first; default 64). */
	max?: number;
	/** Diagnostics that belong to no request (skips and load errors at load, reloads). */
	log(line: string): void;
}

/** A pool of loaded hosts. */
export interface HostPool {
	/** The {@link BridgeHostSource} for `runBridge`; call it inside {@link HostPool.run}. */
	source: BridgeHostSource;
	/** Runs one request: what its host reports while `work` runs reaches that request. */
	run<T>(work: () => Promise<T>): Promise<T>;
	/** How many hosts are loaded. */
	size(): number;
	/** Stops watching and closes every host. */
	close(): void;
}

interface Entry {
	key: string;
	host: Promise<Host>;
	active: number;
	retired: boolean;
	watcher?: HookWatcher;
	used: number;
}

/** What one request carries through the AsyncLocalStorage. */
interface Call {
	request?: BridgeHostRequest;
	view?: ReadonlySessionManager;
}

/** Creates an empty pool; hosts are loaded on demand. */
export function createHostPool(options: HostPoolOptions): HostPool {
	const calls = new AsyncLocalStorage<Call>();
	const entries = new Map<string, Entry>();
	const max = options.max ?? 64;
	/** Hosts loaded so far: after the first, a load imports the hooks afresh (see `fresh` below). */
	let loads = 0;
	let clock = 0;
	const current = () => calls.getStore()?.request;

	const retire = (entry: Entry) => {
		if (entry.retired) return;
		entry.retired = true;
		entry.watcher?.close();
		if (entries.get(entry.key) === entry) entries.delete(entry.key);
		if (entry.active === 0)
			void entry.host.then(
				(host) => host.close(),
				() => {},
			);
	};

	const evict = () => {
		if (entries.size <= max) return;
		const idle = [...entries.values()].filter((e) => e.active === 0).sort((a, b) => a.used - b.used);
		for (const entry of idle.slice(0, entries.size - max)) retire(entry);
	};

	const load = async (entry: Entry, request: BridgeHostRequest): Promise<Host> => {
		const started = Date.now();
		const viewOf = (open: () => SessionManager) => {
			const fallback = agentSessionView(open, request.agent, request.payload, options.log);
			return new DeferredSessionView(() => {
				const call = calls.getStore();
				if (!call?.request) return fallback;
				const r = call.request;
				call.view ??= agentSessionView(open, r.agent, r.payload, r.say);
				return call.view;
			});
		};
		const host = await createHost({
			...bridgeHostOptions(request, options),
			sessionView: viewOf,
			// Every load but the process's first imports the hooks from the disk as they are now (a reload
			// too): a new session or project whose first call came within the watcher's debounce of an edit
			// got the module cache's old hook, and kept it for the server's life (nothing retired it again).
			fresh: loads++ > 0,
			collectErrors: false,
			notify: (line) => (current() ? current()?.notify(line) : options.log(line.trimEnd())),
			// Per call, from the call's own store: concurrent calls on one host never see each other's agent.
			agent: () => current()?.actor,
		});
		host.runner.onError((e) => {
			const line = `hook error (${e.event}) ${e.hookPath}: ${e.error}`;
			const r = current();
			if (r) r.stderr(line);
			else options.log(line);
		});
		for (const line of describeSkips(host)) options.log(line);
		for (const e of host.loadErrors) options.log(`hook failed to load: ${e.path}: ${e.error}`);
		if (options.watch !== false && !entry.retired) {
			const changed = () => {
				options.log(`hook files changed under ${host.cwd}: the hooks reload on the next request`);
				retire(entry);
			};
			entry.watcher = watchHost(host, options.discovery, options.debounceMs, changed);
			// A change while the load ran, before the watcher started, is not missed: the next request reloads.
			if (entry.watcher.changedSince(started)) changed();
		}
		return host;
	};

	const source: BridgeHostSource = async (request) => {
		const call = calls.getStore();
		if (call) call.request = request;
		const key = `${request.cwd}\0${request.sessionFile}`;
		let entry = entries.get(key);
		if (!entry) {
			const created: Entry = { key, host: Promise.resolve(undefined as unknown as Host), active: 0, retired: false, used: 0 };
			created.host = load(created, request);
			// A host that failed to load is not kept: the next request tries again.
			created.host.catch(() => retire(created));
			entries.set(key, created);
			entry = created;
			evict();
		}
		const pinned = entry;
		pinned.used = ++clock;
		pinned.active++;
		let host: Host;
		try {
			host = await pinned.host;
		} catch (error) {
			pinned.active--;
			throw error;
		}
		const result: BridgeHost = {
			host,
			reported: true, // by the pool, once, when the host was loaded
			release: () => {
				if (--pinned.active === 0 && pinned.retired) host.close();
			},
		};
		return result;
	};

	return {
		source,
		run: (work) => calls.run({}, work),
		size: () => entries.size,
		close() {
			for (const entry of [...entries.values()]) retire(entry);
		},
	};
}
