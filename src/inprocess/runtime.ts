import { writeSync } from "node:fs";
import { join } from "pathe";
import type { InProcessDecision, InProcessRuntime, InProcessToolCall } from "../agents/_shared/inprocess.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { readSettingsFile, userSettingsPath } from "../discovery/settings.ts";
import { gateToolCall, unaskedReason } from "../hooks/tool-wrapper.ts";
import type { AgentMessage, HookEvent } from "../hooks/types.ts";
import { guardHookExitInAgent } from "../process/agent-exit-guard.ts";
import { flushDecisionExports } from "../decisions/otlp-queue.ts";
import { decisionRecord, loadErrorReason, namingFailedHook, type ToolCallDecision } from "../decisions/decide.ts";
import { logDecision } from "../decisions/write.ts";
import { createHost, describeSkips, type Host } from "../host/host.ts";
import { checkIntrinsicsAfter } from "../intrinsic-damage.ts";
import { userAgentDir } from "../paths.ts";
import { discoveryTargets, type HookWatcher, watchHookFiles, watchHost } from "../serve/watch.ts";
import { defaultTrustFile } from "../trust/trust-store.ts";
import { builtinToolParameters } from "../tools/parameters.ts";

/*
 * Our runner inside an agent's own process (OpenCode, Kilo Code): hooks discovered and loaded from
 * the agent's project directory exactly as the CLI does (providers, settings, the user's trust store,
 * the CLI's handler timeouts), reloaded when anything they depend on changes (as `serve` does), and
 * fail closed: these agents skip a plugin that throws at init and carry on unguarded, so nothing here
 * throws at start; a load that failed, or a hook that failed to load, blocks every tool call with a
 * reason naming it, until a reload succeeds. Every tool call's decision goes to the decision log and
 * the team's collector, as a bridge call's does (docs/contract.md#bridges, #teams): the agent, its session, the tool, the
 * verdict, the deciding hook — never the tool's input.
 */

/** Options of {@link startInProcess}. */
export interface InProcessOptions {
	/** The agent's name: the session file is `~/.xcsh/agent/sessions/<agent>.jsonl`. */
	agent: string;
	/** The folder the agent runs in (`ctx.cwd`); its project is found from it, from any folder inside (src/discovery/project.ts). */
	directory: string;
	/** Reload on file changes (default true). */
	watch?: boolean;
	/** Where log lines go (default: stderr, which the agent shows in its log). */
	log?: (line: string) => void;
}

/** The runtime plus its lifecycle. */
export interface InProcessHandle extends InProcessRuntime {
	/** Re-imports the hooks now; resolves when the new ones are in place (or the old stay, on failure). */
	reload(): Promise<void>;
	/** Stops watching and closes the session. */
	close(): void;
}

/** A generation of loaded hooks, or why there are none (with the user's settings, for the decision log). */
type Loaded =
	| { host: Host; failure?: undefined; settings?: undefined }
	| { host?: undefined; failure: string; settings: Record<string, unknown> };
/** A tool call's decision and the hook that decided it. */
type Decided = { decision: InProcessDecision; hook?: string | undefined };

/** Watches what a load that failed whole read: discovery's files and folders, the trust store, the session file. */
function watchFailedLoad(cwd: string, sessionFile: string, onChange: () => void): HookWatcher {
	const targets = discoveryTargets(cwd);
	return watchHookFiles({ files: [...targets.files, defaultTrustFile(), sessionFile], dirs: targets.dirs }, 100, onChange);
}

/** Loads the hooks for `options.directory` and returns the runtime; never throws (a failure is kept and blocks tool calls). */
export async function startInProcess(options: InProcessOptions): Promise<InProcessHandle> {
	const log = options.log ?? ((line: string) => writeSync(2, `xcsh-hooks: ${line}\n`));
	const cwd = options.directory;
	const sessionFile = join(userAgentDir(), "sessions", `${options.agent}.jsonl`);
	// The agent's own exit must work, a hook's must not end the agent (see agent-exit-guard.ts).
	guardHookExitInAgent();

	const load = async (fresh: boolean): Promise<Loaded> => {
		loadStarted = Date.now();
		try {
			const host = await createHost({
				cwd,
				hookPaths: [],
				discovery: true,
				sessionFile,
				interactive: false,
				fresh,
				collectErrors: false,
				guardExit: false,
				notify: (line) => log(line.trimEnd()),
			});
			host.runner.onError((error) => log(`hook ${error.hookPath} failed on ${error.event}: ${error.error}`));
			for (const line of describeSkips(host)) log(line);
			for (const error of host.loadErrors) log(`hook failed to load, tool calls are blocked: ${error.path}: ${error.error}`);
			return { host };
		} catch (error) {
			const failure = `xcsh-hooks could not load hooks for ${cwd} (fail closed): ${errorMessage(error)}`;
			log(failure);
			// The user's `decisionLog: false` holds for the blocks that follow too.
			const settings = await readSettingsFile(userSettingsPath()).then(
				(read) => read.settings ?? {},
				() => ({}),
			);
			return { failure, settings };
		}
	};

	let loadStarted = 0;
	let current = await load(false);
	let reloading: Promise<void> | undefined;
	let watcher: HookWatcher | undefined;
	let closed = false;

	const rewatch = () => {
		watcher?.close();
		watcher = undefined;
		if (options.watch === false || closed) return;
		try {
			// A load that failed whole is watched too (what discovery reads, the settings, the trust
			// store): fixing it lifts the block without restarting the agent; until then every call stays blocked.
			const changed = () => {
				if (!closed) void reload();
			};
			watcher = current.host ? watchHost(current.host, true, 100, changed) : watchFailedLoad(cwd, sessionFile, changed);
			// A change while the load ran, before this watcher started, is reloaded now, not missed.
			if (watcher.changedSince(loadStarted)) void reload();
		} catch (error) {
			log(`cannot watch hook files (no automatic reload): ${errorMessage(error)}`);
		}
	};

	const reload = (): Promise<void> => {
		const previous = reloading;
		const next = (async () => {
			await previous;
			const loaded = await load(true);
			if (closed) return loaded.host?.close();
			// A failed reload keeps the hooks that were loaded: they still guard.
			if (!loaded.host && current.host) return log("reload failed; the previous hooks stay loaded");
			const old = current.host;
			current = loaded;
			old?.close();
			rewatch();
		})();
		reloading = next;
		void next.finally(() => {
			if (reloading === next) reloading = undefined;
		});
		return next;
	};
	rewatch();

	/** The host once any reload in flight is done (calls never see hooks swapped under them mid-decision). */
	const ready = async (): Promise<Loaded> => {
		if (reloading) await reloading;
		return current;
	};

	const block = (reason: string): InProcessDecision => ({ block: true, reason });

	/**
	 * After an event that guards nothing: a built-in its handlers changed is put back now and logged
	 * (tool calls check after each handler themselves), so no later call — nor the agent — runs on it.
	 */
	const checked = <T>(host: Host, type: string, value: T): T => {
		const paths = host.hooks.filter((hook) => (hook.handlers.get(type)?.length ?? 0) > 0).map((hook) => hook.path);
		const damaged = paths.length > 0 ? checkIntrinsicsAfter(`a hook (${paths.join(", ")}) on ${type}`) : undefined;
		if (damaged !== undefined) log(damaged);
		return value;
	};

	/** What a tool call decided, and the hook that decided it. */
	const decide = async (loaded: Loaded, call: InProcessToolCall): Promise<Decided> => {
		if (!loaded.host) return { decision: block(loaded.failure) };
		if (loaded.host.loadErrors.length > 0) return { decision: block(loadErrorReason(loaded.host.loadErrors, "agent")) };
		const event = { type: "tool_call" as const, toolName: call.toolName, toolCallId: call.toolCallId, input: call.input };
		const gate = await gateToolCall(loaded.host.runner, event, () => builtinToolParameters(call.toolName));
		// The plugin cannot put a question to anyone (its agents run the call or not): an ask is blocked, saying so.
		if (gate.ask) return { decision: block(unaskedReason(gate.reason)), hook: gate.hookPath };
		if (gate.block)
			return {
				decision: block(gate.result === undefined ? namingFailedHook(gate.reason, gate.hookPath) : gate.reason),
				hook: gate.hookPath,
			};
		return { decision: { block: false, input: gate.result?.input }, hook: gate.hookPath };
	};
	// A log that cannot be written says so once in the agent's log, not on every call.
	const warned = new Set<string>();
	const warnOnce = (warning: string) => {
		if (warned.has(warning)) return;
		warned.add(warning);
		log(`warning: ${warning}`);
	};
	/**
	 * Puts a decision on record, with the settings of the hooks that decided (or of the last load, when
	 * the call failed before it had hooks). Queued collector records go out now, in the background: an
	 * agent run that ends right after its last call (`opencode run`) does not take them with it. Nothing
	 * here can change the call's answer.
	 */
	const record = (call: InProcessToolCall, loaded: Loaded | undefined, decided: Decided, ms: number) => {
		const { decision, hook } = decided;
		const from = loaded ?? current;
		const verdict: ToolCallDecision = decision.block
			? { decision: "deny", reason: decision.reason, hook }
			: decision.input !== undefined
				? { decision: "rewrite", input: decision.input, hook }
				: { decision: "allow", hook };
		const origin = { agent: options.agent, session: call.sessionId, event: call.event, tool: call.toolName };
		logDecision({ settings: from.host?.settings ?? from.settings ?? {} }, decisionRecord(origin, verdict, ms), process.env, warnOnce);
		void flushDecisionExports();
	};

	return {
		async toolCall(call) {
			const started = performance.now();
			let loaded: Loaded | undefined;
			let decided: Decided;
			try {
				loaded = await ready();
				decided = await decide(loaded, call);
			} catch (error) {
				decided = { decision: block(`xcsh-hooks failed while deciding this call (fail closed): ${errorMessage(error)}`) };
			}
			try {
				record(call, loaded, decided, performance.now() - started);
			} catch {
				// the record is never a reason for a call to fail, or to pass
			}
			return decided.decision;
		},
		async toolResult(event) {
			const { host } = await ready();
			if (!host) return undefined;
			return checked(host, event.type, (await host.runner.emit(event)) ?? undefined);
		},
		async beforeAgentStart(prompt) {
			const { host } = await ready();
			if (!host) return undefined;
			// Through `emit`: results combine by the event's rule in the event table.
			const event = { type: "before_agent_start" as const, prompt };
			const result = checked(host, event.type, await host.runner.emit(event));
			const content = result?.message?.content;
			if (content === undefined) return undefined;
			if (typeof content === "string") return content;
			return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n") || undefined;
		},
		async context(messages: AgentMessage[]) {
			const { host } = await ready();
			const event = { type: "context" as const, messages };
			if (!host?.runner.hasHandlers(event.type)) return undefined;
			return checked(host, event.type, await host.runner.emit(event))?.messages;
		},
		handles(type) {
			// While the load or a reload is in flight, assume yes: the call waits for the hooks.
			if (reloading) return true;
			return current.host?.runner.hasHandlers(type as HookEvent["type"]) ?? false;
		},
		notify(event) {
			void ready()
				.then(async ({ host }) => host && checked(host, event.type, await host.runner.emit(event)))
				.catch((error) => log(`${event.type} failed: ${errorMessage(error)}`));
		},
		log,
		reload,
		close() {
			closed = true;
			watcher?.close();
			current.host?.close();
		},
	};
}
