import { existsSync } from "node:fs";
import { execCommand } from "../exec/exec-command.ts";
import { createLogger } from "../logger.ts";
import { resolvePath } from "../paths.ts";
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

type PackageRoot = HookAPI["pi"];
let packageRoot: PackageRoot | undefined;

/**
 * The package root served as `pi.pi`, evaluated when a hook first reads it: it pulls in every
 * subsystem (tools, UI, session store…), which would otherwise cost each `emit` start-up ≈2 ms.
 * A synchronous `require` keeps `pi.pi` a plain value and the module the same instance `import` gets.
 */
function loadPackageRoot(): PackageRoot {
	packageRoot ??= require("../index.ts") as PackageRoot;
	return packageRoot;
}

/** Options of {@link loadHooks}. */
export interface LoadHooksOptions {
	/** How to run non-module files (shell hooks), by absolute path; others are inferred from `pre/`/`post/` folders. */
	shellHooks?: ReadonlyMap<string, ShellHookSpec>;
	/** Timeout of one shell hook run in ms (default 60 s). */
	shellTimeoutMs?: number;
	/** Import modules afresh instead of from the module cache (for reloading edited hooks). */
	fresh?: boolean;
}

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
			if (typeof handler !== "function") throw new TypeError(`pi.on("${event}"): handler must be a function`);
			const list = handlers.get(event);
			if (list) list.push(handler);
			else handlers.set(event, [handler]);
		},
		sendMessage(message, options) {
			if (!sendMessageHandler) throw new Error("sendMessage handler not initialized");
			sendMessageHandler(message, options);
		},
		appendEntry(customType, data) {
			if (!appendEntryHandler) throw new Error("appendEntry handler not initialized");
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
		get pi() {
			return loadPackageRoot();
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
export async function loadHookFromFactory(
	factory: HookFactory,
	path: string,
	cwd: string,
	resolvedPath = path,
): Promise<LoadedHook> {
	const { api, hook } = createHookAPI(path, resolvedPath, cwd);
	await factory(api);
	return hook;
}

async function importFactory(resolvedPath: string, fresh: boolean): Promise<HookFactory> {
	if (!existsSync(resolvedPath)) throw new Error(`file not found: ${resolvedPath}`);
	const module = await import(fresh ? `${resolvedPath}?t=${Date.now()}` : resolvedPath);
	if (typeof module.default !== "function") throw new Error("Hook must export a default function");
	return module.default as HookFactory;
}

function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Loads hooks from files. Paths: absolute as is, `~` home-expanded, relative against `cwd`.
 * Modules are imported concurrently, then factories run one by one in path order, so `hooks`
 * keeps the order of `paths`. A bad hook becomes `{path, error: "Failed to load hook: …"}` in
 * `errors` and never stops the others. Non-module files are adapted as shell hooks (SPEC §8.3).
 */
export async function loadHooks(paths: string[], cwd: string, options: LoadHooksOptions = {}): Promise<LoadHooksResult> {
	const resolved = paths.map((path) => resolvePath(path, cwd));
	const factories = await Promise.allSettled(
		resolved.map(async (resolvedPath): Promise<HookFactory> => {
			if (isModulePath(resolvedPath)) return importFactory(resolvedPath, options.fresh ?? false);
			return createShellHookFactory(resolvedPath, options.shellHooks?.get(resolvedPath), options.shellTimeoutMs);
		}),
	);

	const result: LoadHooksResult = { hooks: [], errors: [] };
	for (const [i, settled] of factories.entries()) {
		const path = paths[i] as string;
		try {
			if (settled.status === "rejected") throw settled.reason;
			result.hooks.push(await loadHookFromFactory(settled.value, path, cwd, resolved[i]));
		} catch (error) {
			result.errors.push({ path, error: `Failed to load hook: ${message(error)}` });
		}
	}
	return result;
}
