import { XcshError } from "../errors.ts";
import { realpathSync, statSync } from "node:fs";
import { isAbsolute } from "pathe";
import { execCommand } from "../exec/exec-command.ts";
import { mark, span } from "../profile.ts";
import { createLogger } from "../logger.ts";
import { resolvePath } from "../paths.ts";
import { withTimeout } from "../timeouts.ts";
import { checkIntrinsicsAfter, checkIntrinsicsBefore } from "../intrinsic-damage.ts";
import { didYouMean } from "../suggest.ts";
import { type ApprovedSource, serveApprovedModules } from "./_approved.ts";
import { errorMessage } from "./_describe.ts";
import { recordHookFile } from "./_hook-files.ts";
import { packageRoot } from "./package-root.ts";
import { hookEventTypes, isHookEventType } from "./checks.ts";
import { createShellHookFactory, isModulePath, type ShellHookSpec } from "./shell-hook.ts";
import type {
	AnyHookHandler,
	AppendEntryHandler,
	HookAPI,
	HookFactory,
	HookMessageRenderer,
	LoadedHook,
	LoadHooksResult,
	RegisteredCommand,
	SendMessageHandler,
} from "./types.ts";

/** Options of {@link loadHooks}. */
export interface LoadHooksOptions {
	/** How to run non-module files (shell hooks), by absolute path; others are inferred from `pre/`/`post/` folders. */
	shellHooks?: ReadonlyMap<string, ShellHookSpec>;
	/** Timeout of one shell hook run in ms (default 60 s). */
	shellTimeoutMs?: number | undefined;
	/** Import modules afresh instead of from the module cache (for reloading edited hooks). */
	fresh?: boolean | undefined;
	/**
	 * Approved content by resolved path (trust): such a hook runs exactly these bytes — the module is
	 * imported from them, a shell hook runs a private copy of them — never the file as it is now.
	 */
	sources?: ReadonlyMap<string, ApprovedSource>;
	/** Time one hook may take to import and to run its factory, in ms (default 10 s); past it, a load error. */
	loadTimeoutMs?: number | undefined;
}

/** Default time a hook may take to import, and then to run its factory. */
export const DEFAULT_LOAD_TIMEOUT_MS = 10_000;

/**
 * Builds the {@link HookAPI} a factory receives together with the {@link LoadedHook} that records
 * what it registers. Exposed for harnesses that load a hook from a factory instead of a file.
 */
export function createHookAPI(path: string, resolvedPath: string, cwd: string): { api: HookAPI; hook: LoadedHook } {
	const handlers = new Map<string, AnyHookHandler[]>();
	const commands = new Map<string, RegisteredCommand>();
	const messageRenderers = new Map<string, HookMessageRenderer>();
	let sendMessageHandler: SendMessageHandler | undefined;
	let appendEntryHandler: AppendEntryHandler | undefined;

	const api: HookAPI = {
		on(event: string, handler: AnyHookHandler) {
			// A typo would be a guard that never runs: it is a load error instead (docs/contract.md#hook-modules).
			if (!isHookEventType(event)) {
				const near = typeof event === "string" ? didYouMean(event, hookEventTypes()) : "";
				throw new TypeError(`Unknown event ${JSON.stringify(String(event))}${near}`);
			}
			if (typeof handler !== "function") throw new TypeError(`pi.on("${event}"): handler must be a function`);
			const list = handlers.get(event);
			if (list) list.push(handler);
			else handlers.set(event, [handler]);
		},
		sendMessage(message, options) {
			if (!sendMessageHandler) throw new XcshError("INTERNAL", "sendMessage handler not initialized");
			sendMessageHandler(message, options);
		},
		appendEntry(customType, data) {
			if (!appendEntryHandler) throw new XcshError("INTERNAL", "appendEntry handler not initialized");
			appendEntryHandler(customType, data);
		},
		registerCommand(name, options) {
			commands.set(name, { name, description: options.description, handler: options.handler });
		},
		registerMessageRenderer(customType, renderer) {
			messageRenderers.set(customType, renderer as HookMessageRenderer);
		},
		exec(command, args, options) {
			return execCommand(command, args, options?.cwd ?? cwd, options);
		},
		logger: createLogger(path),
		get typebox() {
			return (require("./_typebox.ts") as typeof import("./_typebox.ts")).typebox;
		},
		// The package root, handed to the loader by the entry above it (./package-root.ts).
		get pi() {
			return packageRoot();
		},
	} as HookAPI;

	const hook: LoadedHook = {
		path,
		resolvedPath,
		handlers,
		commands,
		messageRenderers,
		setSendMessageHandler: (handler) => {
			sendMessageHandler = handler;
		},
		setAppendEntryHandler: (handler) => {
			appendEntryHandler = handler;
		},
	};
	return { api, hook };
}

/** Runs a factory against a fresh API; async factories are awaited before the hook counts as loaded. */
export async function loadHookFromFactory(factory: HookFactory, path: string, cwd: string, resolvedPath = path): Promise<LoadedHook> {
	const { api, hook } = createHookAPI(path, resolvedPath, cwd);
	await factory(api);
	return hook;
}

/** Rejects when `promise` has not settled after `ms` (none when `ms` is not a usable delay). */
function within<T>(promise: Promise<T>, ms: number | undefined, what: () => string): Promise<T> {
	return withTimeout(promise, ms, (): never => {
		throw new XcshError("HOOK_TIMEOUT", `${what()} did not finish within ${ms} ms`);
	});
}

/**
 * A hook path must name a regular file: a directory would import its `index.ts` (code nobody
 * approved), and a FIFO or device would block the import forever.
 */
function assertRegularFile(resolvedPath: string): void {
	let info: ReturnType<typeof statSync>;
	try {
		info = statSync(resolvedPath);
	} catch {
		throw new XcshError("HOOK_LOAD", `file not found: ${resolvedPath}`);
	}
	if (!info.isFile())
		throw new XcshError(
			"HOOK_LOAD",
			`${resolvedPath} is not a regular file (${info.isDirectory() ? "a directory" : "a FIFO, socket or device"}); a hook must be a file`,
		);
}

/**
 * Drops the project files a hook imports (its import graph as it is on disk now, outside
 * `node_modules`) from the module cache, so a fresh import of the hook evaluates them anew too: a
 * server reloading on an edited `lib/policy.ts` must not keep running the old one. Approved hooks need
 * none of this: each load serves their whole graph under a new specifier.
 */
function forgetImports(resolvedPath: string): void {
	try {
		const { importGraph } = require("./import-graph.ts") as typeof import("./import-graph.ts");
		const { readRegularFile } = require("../fs/regular-file.ts") as typeof import("../fs/regular-file.ts");
		const real = realpathSync(resolvedPath);
		for (const file of importGraph(real, readRegularFile(real), false).keys()) delete require.cache[file];
	} catch {
		// An unreadable hook fails its import with its own error.
	}
}

async function importFactory(specifier: string, resolvedPath: string, fresh: boolean, approved: boolean): Promise<HookFactory> {
	if (!approved) assertRegularFile(resolvedPath);
	if (fresh && !approved) forgetImports(resolvedPath);
	recordHookFile(specifier, resolvedPath);
	const started = performance.now();
	const module = await import(approved || !fresh ? specifier : `${specifier}?t=${Date.now()}`);
	span(`import ${resolvedPath}`, started);
	if (typeof module.default !== "function") throw loadFailure("Hook must export a default function");
	return module.default as HookFactory;
}

/** Load errors whose message is reported as is, without the `Failed to load hook:` prefix (as upstream). */
const reportedAsIs = new WeakSet<Error>();
function loadFailure(message: string): XcshError {
	const error = new XcshError("HOOK_LOAD", message);
	reportedAsIs.add(error);
	return error;
}

/**
 * Loads hooks from files. Paths: absolute as is (`resolvedPath` keeps them unnormalised, as
 * upstream), `~` home-expanded, relative against `cwd`. Modules are imported concurrently, then
 * factories run one by one in path order, so `hooks` keeps the order of `paths`; each import and
 * each factory has `loadTimeoutMs`. A bad hook becomes `{path, error: "Failed to load hook: …"}` in
 * `errors` and never stops the others. Non-module files are adapted as shell hooks (docs/contract.md#shell-hooks).
 * A path that is not a regular file is a load error; with `sources`, approved hooks run exactly
 * the approved bytes.
 */
export async function loadHooks(paths: string[], cwd: string, options: LoadHooksOptions = {}): Promise<LoadHooksResult> {
	const resolved = paths.map((path) => (isAbsolute(path) ? path : resolvePath(path, cwd)));
	const timeoutMs = options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
	const sources = options.sources ?? new Map<string, ApprovedSource>();
	const modules = new Map([...sources].filter(([path]) => isModulePath(path)));
	const specifiers = serveApprovedModules(modules, cwd);
	checkIntrinsicsBefore(() => "loaded before these"); // embedded in an agent: its own changes so far are its business
	const factories = await Promise.allSettled(
		resolved.map(async (resolvedPath): Promise<HookFactory> => {
			const source = sources.get(resolvedPath);
			if (!isModulePath(resolvedPath))
				return createShellHookFactory(resolvedPath, options.shellHooks?.get(resolvedPath), options.shellTimeoutMs, source);
			const specifier = specifiers.get(resolvedPath);
			const imported = importFactory(specifier ?? resolvedPath, resolvedPath, options.fresh ?? false, specifier !== undefined);
			return within(imported, timeoutMs, () => `importing ${resolvedPath}`);
		}),
	);

	mark("imports");
	const result: LoadHooksResult = { hooks: [], errors: [] };
	// Modules are imported together: a change of the built-ins by one of them names them all.
	// The quick look (the full one comes once a call is decided): a start-up paid by every call stays small.
	const imported = checkIntrinsicsAfter(() => `a hook (one of ${paths.join(", ")}) while it was imported`, true);
	if (imported !== undefined) result.errors.push({ path: paths.join(", "), error: imported });
	for (const [i, settled] of factories.entries()) {
		const path = paths[i] as string;
		try {
			if (settled.status === "rejected") throw settled.reason;
			const loading = loadHookFromFactory(settled.value, path, cwd, resolved[i]);
			const hook = await within(loading, timeoutMs, () => `the factory of ${path}`);
			const damaged = checkIntrinsicsAfter(`hook ${path}`, true);
			if (damaged !== undefined) throw loadFailure(damaged);
			result.hooks.push(hook);
		} catch (error) {
			const text = error instanceof Error && reportedAsIs.has(error) ? error.message : `Failed to load hook: ${errorMessage(error)}`;
			result.errors.push({ path, error: text });
		}
	}
	mark("factories");
	return result;
}
