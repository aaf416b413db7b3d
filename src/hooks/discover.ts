import { type Hook, hookExtensionId, hookKey } from "../capability/hooks.ts";
import { type CapabilityRegistry, defaultRegistry } from "../capability/registry.ts";
import { registerHookDiscovery } from "../discovery/register.ts";
import { loadSettings, type Settings } from "../discovery/settings.ts";
import { resolvePath } from "../paths.ts";
import { TrustError, type TrustStore } from "../trust/trust-store.ts";
import { type LoadHooksOptions, loadHooks } from "./loader.ts";
import { DEFAULT_SHELL_HOOK_TIMEOUT_MS, isModulePath, type ShellHookSpec } from "./shell-hook.ts";
import type { HookSource, LoadHooksResult } from "./types.ts";

/** Options of {@link discoverAndLoadHooks}. */
export interface DiscoverAndLoadOptions extends Pick<LoadHooksOptions, "shellTimeoutMs" | "fresh"> {
	/**
	 * Which project-level hooks may run. `"all"` (the default, as in the seed) runs everything; a
	 * {@link TrustStore} runs a project hook only when its current content hash was approved, and
	 * reports the others in `skipped`. User-level hooks and `configuredPaths` always run.
	 */
	trust?: "all" | TrustStore;
	/** Scan the providers (default true); `false` loads only settings and configured paths. */
	discovery?: boolean;
	/** Read `.xcsh/settings.json` and `~/.xcsh/agent/settings.json` (default true). */
	settings?: boolean;
	/** Home directory whose user-level hooks are discovered (default `HOME`). */
	home?: string;
	/** The capability registry to discover with (default: the shared one). */
	registry?: CapabilityRegistry;
}

/** A project hook that was not run because the user has not approved its current content. */
export interface SkippedHook {
	path: string;
	/** `unknown`: never approved; `changed`: edited since; `unverifiable`: the trust store cannot be read. */
	reason: "unknown" | "changed" | "unverifiable";
	/** Hash of the file's current content (absent when it could not be checked). */
	sha256?: string;
	/** The command that approves it. */
	approve: string;
}

/** What {@link discoverAndLoadHooks} returns: loaded hooks (each with its `source`), errors, skips, warnings. */
export interface DiscoverAndLoadResult extends LoadHooksResult {
	skipped: SkippedHook[];
	warnings: string[];
	/** The settings in effect (with a trust store, the project's file cannot change `hookTimeoutMs`). */
	settings: Settings;
}

interface Candidate {
	path: string;
	source: HookSource;
	shell?: ShellHookSpec;
	/** Discovered hooks: the capability key (first wins) and extension id (can be disabled). */
	hook?: Hook;
}

type Verdict = { run: true } | { run: false; skip: SkippedHook };

function fromDiscovery(hook: Hook, configured: ReadonlySet<string>): Candidate {
	// A discovered file the user also named with --hook is their own choice: no approval needed.
	const level = configured.has(hook.path) ? "user" : hook.level;
	const source: HookSource = { origin: "discovered", level, provider: hook._source.provider };
	const shell = isModulePath(hook.path) ? undefined : { type: hook.type, tool: hook.tool };
	return { path: hook.path, source, shell, hook };
}

/** Trust verdicts of the project-level candidates; an unreadable trust store trusts none of them. */
async function verdicts(candidates: Candidate[], store: TrustStore, warnings: string[]): Promise<Map<Candidate, Verdict>> {
	const result = new Map<Candidate, Verdict>();
	let storeProblem: string | undefined;
	await Promise.all(
		candidates
			.filter((c) => c.source.level === "project")
			.map(async (candidate) => {
				const approve = `xcsh-hooks trust approve ${candidate.path}`;
				try {
					const check = await store.check(candidate.path);
					const skip = { path: candidate.path, reason: check.reason ?? "unknown", sha256: check.sha256, approve };
					result.set(candidate, check.trusted ? { run: true } : { run: false, skip });
				} catch (error) {
					// A hook file that cannot be read is the loader's to report; a broken store trusts nothing.
					if (error instanceof TrustError && error.code === "HOOK_UNREADABLE") return result.set(candidate, { run: true });
					storeProblem = error instanceof Error ? error.message : String(error);
					result.set(candidate, { run: false, skip: { path: candidate.path, reason: "unverifiable", approve } });
				}
			}),
	);
	if (storeProblem) warnings.push(`project hooks not run: the trust store cannot be used (${storeProblem})`);
	return result;
}

/**
 * Discovers hooks and loads them with the configured ones (SPEC §3, §8): discovered hooks (highest
 * priority provider first), then the settings' `hooks`, then `configuredPaths` resolved against `cwd`;
 * deduplicated by absolute path, first occurrence wins; loaded in that order. Discovered non-module
 * files run as shell hooks. Settings may disable providers and extension ids.
 *
 * With a trust store, project content cannot weaken the user's own hooks: an unapproved project hook
 * never shadows a user hook of the same key (it is dropped before the first-wins choice), and the
 * project's settings file may disable project hooks only and cannot set `hookTimeoutMs`.
 */
export async function discoverAndLoadHooks(
	configuredPaths: string[],
	cwd: string,
	options: DiscoverAndLoadOptions = {},
): Promise<DiscoverAndLoadResult> {
	const trust = options.trust ?? "all";
	const guarded = trust !== "all";
	const warnings: string[] = [];
	let settings: Settings = {};
	let userSettings: Settings = {};
	const fromSettings: Candidate[] = [];
	if (options.settings !== false) {
		const loaded = await loadSettings(cwd);
		warnings.push(...loaded.warnings);
		userSettings = loaded.layers.user ?? {};
		settings = guarded ? { ...loaded.settings, hookTimeoutMs: userSettings.hookTimeoutMs } : loaded.settings;
		for (const { path, level } of loaded.hookPaths) fromSettings.push({ path, source: { origin: "settings", level } });
	}
	const configuredSet = new Set(configuredPaths.map((path) => resolvePath(path, cwd)));
	const configured = [...configuredSet].map((path): Candidate => ({ path, source: { origin: "configured", level: "user" } }));

	let discovered: Candidate[] = [];
	if (options.discovery !== false) {
		const registry = registerHookDiscovery(options.registry ?? defaultRegistry);
		// What may be disabled for which hooks: everything by the merged settings, or — guarded — the
		// user's choices for every hook and the project's for project hooks only.
		const everyone = guarded ? userSettings : settings;
		const found = await registry.loadCapability<Hook>("hooks", {
			cwd,
			home: options.home,
			excludeProviders: everyone.disabledProviders,
			includeDisabled: true,
		});
		warnings.push(...found.warnings);
		const disabled = new Set(everyone.disabledExtensions);
		const projectDisabled = new Set(guarded ? settings.disabledExtensions : []);
		const projectProviders = new Set(guarded ? settings.disabledProviders : []);
		discovered = found.all
			.filter((hook) => !hook._invalid && !disabled.has(hookExtensionId(hook)))
			.map((hook) => fromDiscovery(hook, configuredSet))
			.filter(
				(c) =>
					c.source.level !== "project" ||
					!(projectDisabled.has(hookExtensionId(c.hook as Hook)) || projectProviders.has(c.source.provider as string)),
			);
	}

	const candidates = [...discovered, ...fromSettings, ...configured];
	const trusted = guarded ? await verdicts(candidates, trust, warnings) : undefined;
	const skipped: SkippedHook[] = [];
	const keys = new Set<string>();
	const chosen = new Map<string, Candidate>();
	for (const candidate of candidates) {
		const verdict = trusted?.get(candidate);
		if (verdict && !verdict.run) {
			if (!skipped.some((s) => s.path === verdict.skip.path)) skipped.push(verdict.skip);
			continue;
		}
		if (candidate.hook) {
			const key = hookKey(candidate.hook);
			if (keys.has(key)) continue; // shadowed by a higher-priority hook that will run
			keys.add(key);
		}
		if (!chosen.has(candidate.path)) chosen.set(candidate.path, candidate);
	}

	const approved = [...chosen.values()];
	const shellHooks = new Map(approved.flatMap((c) => (c.shell ? [[c.path, c.shell] as const] : [])));
	const result = await loadHooks(
		approved.map((c) => c.path),
		cwd,
		// A shell hook never outlives the handler timeout: its process is killed with it.
		{ shellHooks, shellTimeoutMs: Math.min(options.shellTimeoutMs ?? DEFAULT_SHELL_HOOK_TIMEOUT_MS, settings.hookTimeoutMs || Infinity), fresh: options.fresh },
	);
	for (const hook of result.hooks) hook.source = chosen.get(hook.resolvedPath)?.source;
	return { ...result, skipped, warnings, settings };
}
