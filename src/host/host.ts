import { XcshError } from "../errors.ts";
import { statSync, writeSync } from "node:fs";
import { DeferredSessionView } from "../session/deferred-view.ts";
import { dirname, join } from "pathe";
import type { Settings } from "../discovery/settings.ts";
import { discoverAndLoadHooks, type SkippedHook } from "../discovery/discover.ts";
import { HookRunner } from "../hooks/runner.ts";
import type { HookAgent, HookError, HookLoadError, LoadedHook, NewSessionOptions } from "../hooks/types.ts";
import { userAgentDir } from "../paths.ts";
import type { SessionManager } from "../session/session-manager.ts";
import type { ReadonlySessionManager } from "../session/types.ts";
import { TrustStore } from "../trust/trust-store.ts";
import { createNoOpUIContext } from "../ui/no-op.ts";
import type { HookUIContext } from "../ui/types.ts";
import { exitProcess, guardProcessExit } from "../process/exit-guard.ts";
import { isTerminal } from "../process/tty.ts";

/** The CLI's handler timeout for `tool_call` when settings give none: an agent waiting on us gets a block, not its own fail-open timeout. */
export const DEFAULT_TOOL_CALL_TIMEOUT_MS = 30_000;

/** Options of {@link createHost}. */
export interface HostOptions {
	cwd: string;
	/** Paths from `--hook`: the user's own choice, never subject to trust. */
	hookPaths: string[];
	/** Scan the discovery providers (`--no-discovery` turns it off). */
	discovery: boolean;
	/** Discovery provider ids to skip (a bridge skips its own agent's config: the agent runs those hooks itself). */
	excludeProviders?: string[] | undefined;
	/** JSONL file for `sendMessage`/`appendEntry`; default `~/.xcsh/agent/sessions/default.jsonl`. */
	sessionFile?: string | undefined;
	/** Interactive terminal UI; default: stdin and stdout are both a TTY. */
	interactive?: boolean;
	/** Import hook modules afresh (used when reloading). */
	fresh?: boolean | undefined;
	/** Receives notifications in headless mode; default stderr. */
	notify?: (line: string) => void;
	/** Collect handler errors in {@link Host.errors} (default true; a long-lived server reports them itself). */
	collectErrors?: boolean;
	/**
	 * The session hooks see as `ctx.sessionManager`, built on the host's session file (`open` opens it
	 * on first use); default: that file alone. Bridges show the agent's transcript with it.
	 */
	sessionView?: (open: () => SessionManager) => ReadonlySessionManager;
	/** The agent of the call being dispatched (`ctx.agent`), read when a hook asks; bridges set it per call. */
	agent?: () => HookAgent | undefined;
	/**
	 * Make `process.exit` throw while hooks run (default true). Off inside another program's process
	 * (an agent that loaded our plugin): its own exit must keep working.
	 */
	guardExit?: boolean;
}

/** A CLI host: hooks loaded with trust, a runner wired to a session file and a UI. */
export interface Host {
	cwd: string;
	runner: HookRunner;
	hooks: LoadedHook[];
	loadErrors: HookLoadError[];
	skipped: SkippedHook[];
	warnings: string[];
	/** Handler errors reported through `onError` since the host was created. */
	errors: HookError[];
	/** The settings in effect (timeouts and `decisionLog` from the user's file only). */
	settings: Settings;
	/** The session file, opened on first use. */
	session(): SessionManager;
	sessionFile: string;
	close(): void;
}

/** The default session file of the CLI. */
function defaultSessionFile(): string {
	return join(userAgentDir(), "sessions", "default.jsonl");
}

/**
 * The UI without a terminal: the no-op UI (prompts get "no answer", `hasUI` false), except that
 * notifications still print one line each, so a hook's message is not lost in scripts and CI.
 */
function createHeadlessUIContext(write: (line: string) => void): HookUIContext {
	const ui = createNoOpUIContext();
	ui.notify = (message, type = "info") => write(`[${type}] ${message}\n`);
	return ui;
}

/**
 * The session store, loaded when a hook first uses the session: `emit` with hooks that never
 * touch it does not pay for loading the store and its schemas at start-up.
 */
function sessionStore(): typeof SessionManager {
	return (require("../session/session-manager.ts") as typeof import("../session/session-manager.ts")).SessionManager;
}

/**
 * Loads hooks the way the CLI does (discovery, settings, trust store for project hooks, `--hook`
 * paths) and wires a runner: session writes go to a JSONL file; `newSession` starts a new file next
 * to it; `branch` and `navigateTree` move the leaf within the same file (so `session_branch` names
 * that file as the previous one); the terminal UI is used when stdin and stdout are a TTY.
 */
export async function createHost(options: HostOptions): Promise<Host> {
	const { cwd } = options;
	if (options.guardExit !== false) guardProcessExit();
	let sessionFile = options.sessionFile ?? defaultSessionFile();
	assertSessionFile(sessionFile);
	const loaded = await discoverAndLoadHooks(options.hookPaths, cwd, {
		discovery: options.discovery,
		trust: new TrustStore(),
		excludeProviders: options.excludeProviders,
		fresh: options.fresh,
	});

	let session: SessionManager | undefined;
	const openSession = () => (session ??= sessionStore().open(sessionFile, { cwd }));

	const interactive = options.interactive ?? (isTerminal(0) && isTerminal(1));
	const ui = interactive
		? (await import("../ui/terminal.ts")).createTerminalUIContext({ onInterrupt: interruptCommand })
		: createHeadlessUIContext(options.notify ?? ((line) => writeSync(2, line))); // sync: lines stay in order

	const handlerTimeoutMs = loaded.settings.hookTimeoutMs || undefined;
	const view = options.sessionView ? options.sessionView(openSession) : new DeferredSessionView(openSession);
	const runner = new HookRunner(loaded.hooks, cwd, view, undefined, {
		handlerTimeoutMs,
		eventTimeouts: { tool_call: handlerTimeoutMs ?? DEFAULT_TOOL_CALL_TIMEOUT_MS },
	});
	const errors: HookError[] = [];
	if (options.collectErrors !== false) runner.onError((error) => errors.push(error));

	const newSession = async (opts?: NewSessionOptions) => {
		const before = await runner.emit({ type: "session_before_switch", reason: "new" });
		if (before?.cancel) return { cancelled: true };
		const previousSessionFile = sessionFile;
		const next = sessionStore().create({
			cwd,
			sessionDir: dirname(sessionFile),
			parentSession: opts?.parentSession ?? previousSessionFile,
		});
		try {
			await opts?.setup?.(next);
		} catch (error) {
			next.close();
			throw error;
		}
		session?.close();
		session = next;
		sessionFile = next.getSessionFile() ?? sessionFile;
		await runner.emit({ type: "session_switch", reason: "new", previousSessionFile });
		return { cancelled: false };
	};

	runner.initialize({
		getModel: () => undefined,
		getAgent: options.agent,
		sendMessageHandler: (message) => void openSession().appendCustomMessage(message),
		appendEntryHandler: (customType, data) => void openSession().appendCustomEntry(customType, data),
		newSessionHandler: newSession,
		branchHandler: async (entryId) => {
			const before = await runner.emit({ type: "session_before_branch", entryId });
			if (before?.cancel) return { cancelled: true };
			openSession().branch(entryId);
			await runner.emit({ type: "session_branch", previousSessionFile: sessionFile });
			return { cancelled: false };
		},
		navigateTreeHandler: async (targetId, opts) => {
			const current = openSession();
			const oldLeafId = current.getLeafId();
			const userWantsSummary = opts?.summarize ?? false;
			const preparation = { targetId, oldLeafId, commonAncestorId: null, entriesToSummarize: [], userWantsSummary };
			const before = await runner.emit({ type: "session_before_tree", preparation });
			if (before?.cancel) return { cancelled: true };
			current.branch(targetId);
			await runner.emit({ type: "session_tree", newLeafId: targetId, oldLeafId });
			return { cancelled: false };
		},
		uiContext: ui,
		hasUI: interactive,
	});

	return {
		cwd,
		runner,
		hooks: loaded.hooks,
		loadErrors: loaded.errors,
		skipped: loaded.skipped,
		warnings: loaded.warnings,
		errors,
		settings: loaded.settings,
		session: openSession,
		get sessionFile() {
			return sessionFile;
		},
		close: () => session?.close(),
	};
}

/**
 * Ctrl+C in a hook's prompt ends the command as a Ctrl-C anywhere else would: whoever listens for
 * SIGINT (`run` stops its tool's process group and exits 130) hears it now, synchronously, before the
 * hook goes on; with nobody listening the process exits 130 at once (exit listeners kill what `exec` started).
 */
function interruptCommand(): void {
	// Listeners get the signal name, as for a real signal.
	if (process.listenerCount("SIGINT") > 0) (process.emit as (event: string, ...args: unknown[]) => boolean)("SIGINT", "SIGINT");
	else exitProcess(130);
}

/**
 * A session file must be a regular file (or not exist yet): reading a FIFO would wait forever and a
 * directory is a mistake. Refused with the path before anything is loaded.
 */
function assertSessionFile(file: string): void {
	let info: ReturnType<typeof statSync>;
	try {
		info = statSync(file);
	} catch {
		return; // created on first use
	}
	if (!info.isFile())
		throw new XcshError(
			"NOT_A_REGULAR_FILE",
			`session file ${file} is not a regular file (${info.isDirectory() ? "a directory" : "a FIFO, socket or device"}); give a file path with --session`,
		);
}

/** A skipped hook as the CLI and `serve` report it (JSON and words alike): one word per state. */
export interface ReportedSkip extends Omit<SkippedHook, "reason"> {
	/**
	 * `not-approved`: never approved (the library's {@link SkippedHook} and `TrustCheck` call it `unknown`);
	 * `changed` and `unverifiable` as in the library.
	 */
	reason: "not-approved" | "changed" | "unverifiable";
}

/**
 * The skips in the words every output uses (`list`, `trust`, `check`, `serve`'s ready notice): the
 * library's `unknown` (kept for API compatibility) is `not-approved` there, as `list` and `trust` say it.
 */
export function reportedSkips(skipped: readonly SkippedHook[]): ReportedSkip[] {
	return skipped.map((s) => ({ ...s, reason: s.reason === "unknown" ? "not-approved" : s.reason }));
}

/**
 * Human lines about project hooks awaiting approval, and discovery warnings. (Hooks that changed
 * since their approval are load errors, reported with the errors.)
 */
export function describeSkips(host: Pick<Host, "skipped" | "warnings">): string[] {
	return [
		...host.skipped.filter((s) => s.reason === "unknown").map((s) => `skipped ${s.path}: project hook not approved yet; run: ${s.approve}`),
		...host.warnings.map((w) => `warning: ${w}`),
	];
}
