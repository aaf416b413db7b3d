import type { Hook } from "../capability/hooks.ts";
import { type CapabilityRegistry, defaultRegistry } from "../capability/registry.ts";
import { registerHookDiscovery } from "../discovery/register.ts";
import { loadSettings, type Settings } from "../discovery/settings.ts";
import { resolvePath } from "../paths.ts";
import type { TrustStore } from "../trust/trust-store.ts";
import { type LoadHooksOptions, loadHooks } from "./loader.ts";
import { isModulePath, type ShellHookSpec } from "./shell-hook.ts";
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
	reason: "unknown" | "changed";
	sha256: string;
	/** The command that approves it. */
	approve: string;
}

/** What {@link discoverAndLoadHooks} returns: loaded hooks (each with its `source`), errors, skips, warnings. */
export interface DiscoverAndLoadResult extends LoadHooksResult {
	skipped: SkippedHook[];
	warnings: string[];
	settings: Settings;
}

interface Candidate {
	path: string;
	source: HookSource;
	shell?: ShellHookSpec;
}

function fromDiscovery(hook: Hook): Candidate {
	const source: HookSource = { origin: "discovered", level: hook.level, provider: hook._source.provider };
	return isModulePath(hook.path) ? { path: hook.path, source } : { path: hook.path, source, shell: { type: hook.type, tool: hook.tool } };
}

/**
 * Discovers hooks and loads them with the configured ones (SPEC §3, §8): discovered hooks (highest
 * priority provider first), then the settings' `hooks`, then `configuredPaths` resolved against `cwd`;
 * deduplicated by absolute path, first occurrence wins; loaded in that order. Discovered non-module
 * files run as shell hooks. Settings may disable providers and extension ids.
 */
export async function discoverAndLoadHooks(
	configuredPaths: string[],
	cwd: string,
	options: DiscoverAndLoadOptions = {},
): Promise<DiscoverAndLoadResult> {
	const warnings: string[] = [];
	let settings: Settings = {};
	const fromSettings: Candidate[] = [];
	if (options.settings !== false) {
		const loaded = await loadSettings(cwd);
		settings = loaded.settings;
		warnings.push(...loaded.warnings);
		for (const { path, level } of loaded.hookPaths) fromSettings.push({ path, source: { origin: "settings", level } });
	}
	let discovered: Candidate[] = [];
	if (options.discovery !== false) {
		const registry = registerHookDiscovery(options.registry ?? defaultRegistry);
		const found = await registry.loadCapability<Hook>("hooks", {
			cwd,
			home: options.home,
			excludeProviders: settings.disabledProviders,
			disabledExtensions: settings.disabledExtensions,
		});
		warnings.push(...found.warnings);
		discovered = found.items.map(fromDiscovery);
	}
	const configured = configuredPaths.map(
		(path): Candidate => ({ path: resolvePath(path, cwd), source: { origin: "configured", level: "user" } }),
	);

	const unique = new Map<string, Candidate>();
	for (const candidate of [...discovered, ...fromSettings, ...configured]) if (!unique.has(candidate.path)) unique.set(candidate.path, candidate);

	const skipped: SkippedHook[] = [];
	const trust = options.trust ?? "all";
	let approved = [...unique.values()];
	if (trust !== "all") {
		const checks = await Promise.all(
			approved.map(async (c) => (c.source.level === "project" ? trust.check(c.path).catch(() => undefined) : undefined)),
		);
		approved = approved.filter((candidate, i) => {
			const check = checks[i];
			if (candidate.source.level !== "project" || check?.trusted) return true;
			// A file that cannot be hashed is left to the loader, which reports it as a load error.
			if (!check) return true;
			skipped.push({
				path: candidate.path,
				reason: check.reason ?? "unknown",
				sha256: check.sha256,
				approve: `xcsh-hooks trust approve ${candidate.path}`,
			});
			return false;
		});
	}

	const shellHooks = new Map(approved.flatMap((c) => (c.shell ? [[c.path, c.shell] as const] : [])));
	const result = await loadHooks(
		approved.map((c) => c.path),
		cwd,
		{ shellHooks, shellTimeoutMs: options.shellTimeoutMs, fresh: options.fresh },
	);
	for (const hook of result.hooks) hook.source = unique.get(hook.resolvedPath)?.source;
	return { ...result, skipped, warnings, settings };
}
