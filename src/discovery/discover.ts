import type { AgentHookEntry } from "../agents/_shared/entry.ts";
import { type Hook, hookExtensionId, hookKey } from "./hooks-capability.ts";
import type { CapabilityRegistry } from "./capability/registry.ts";
import { defaultRegistry, registerHookDiscovery } from "./register.ts";
import { loadSettings, projectSettingsPath, readSettingsFile, type Settings } from "./settings.ts";
import { findProject } from "./project.ts";
import { mark } from "../profile.ts";
import { SYSTEM_PROVIDER } from "./system.ts";
import type { TeamApprovals } from "../trust/team-list.ts";
import { teamSources } from "./team-approvals.ts";
import { type Candidate, type SkippedHook, verdicts } from "./_verdicts.ts";
import { resolvePath } from "../paths.ts";
import type { TrustStore } from "../trust/trust-store.ts";
import type { ApprovedSource } from "../hooks/_approved.ts";
import { type LoadHooksOptions, loadHooks } from "../hooks/loader.ts";
import { DEFAULT_SHELL_HOOK_TIMEOUT_MS, isModulePath, type ShellHookSpec } from "../hooks/shell-hook.ts";
import type { HookLoadError, HookSource, LoadHooksResult } from "../hooks/types.ts";

export type { SkippedHook } from "./_verdicts.ts";

/** Options of {@link discoverAndLoadHooks}. */
export interface DiscoverAndLoadOptions extends Pick<LoadHooksOptions, "shellTimeoutMs" | "fresh" | "loadTimeoutMs"> {
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
	home?: string | undefined;
	/** The capability registry to discover with (default: the shared one). */
	registry?: CapabilityRegistry;
	/** Provider ids not to scan, besides those the settings disable (a bridge skips its own agent's config). */
	excludeProviders?: string[] | undefined;
	/**
	 * Find the project from any folder inside it (default true: src/discovery/project.ts); `false`: `cwd`
	 * is the project root, nothing above it counts (a sandbox such as the demo's workspace).
	 */
	climb?: boolean | undefined;
}

/** What will happen to one hook candidate, as `list` shows it. */
export interface PlannedHook {
	path: string;
	source: HookSource;
	/** The discovered hook, for discovered candidates. */
	hook?: Hook | undefined;
	/**
	 * `run`: will be loaded; `not-approved`: a project hook awaiting approval (skipped); `fails-closed`:
	 * a project hook that changed or cannot be verified or read (a load error: blocks `tool_call`);
	 * `shadowed`: another hook with the same key runs instead; `disabled`: turned off in settings.
	 */
	status: "run" | "not-approved" | "fails-closed" | "shadowed" | "disabled";
	/** Why, in words (e.g. `changed since it was approved`, `by ~/.xcsh/agent/settings.json`). */
	detail?: string | undefined;
	/** A project hook that runs: approved on this machine (`local`), or through a signed team list (`team`, `teamList`). */
	approvedBy?: "local" | "team" | undefined;
	/** The team list that approves it (path), when `approvedBy` is `team`. */
	teamList?: string | undefined;
}

/** What {@link discoverAndLoadHooks} returns: loaded hooks (each with its `source`), errors, skips, warnings. */
export interface DiscoverAndLoadResult extends LoadHooksResult {
	skipped: SkippedHook[];
	warnings: string[];
	/** The settings in effect (with a trust store, the project's file cannot set timeouts or `decisionLog`). */
	settings: Settings;
}

/** What {@link planHooks} decided, before anything is imported. */
export interface HookPlan {
	/** Every candidate with its status, in load order (discovered, settings, configured). */
	entries: PlannedHook[];
	/** The hooks to load, in order, with their shell wiring (or, for an agent's hook entry, the entry). */
	load: Array<{ path: string; source: HookSource; shell?: ShellHookSpec | undefined; entry?: AgentHookEntry | undefined }>;
	/** Approved bytes of trusted project hooks: exactly what will run. */
	sources: Map<string, ApprovedSource>;
	/** Project hooks that fail closed: reported as load errors. */
	failClosed: HookLoadError[];
	skipped: SkippedHook[];
	warnings: string[];
	settings: Settings;
}

function fromDiscovery(hook: Hook, configured: ReadonlySet<string>): Candidate {
	// A discovered file the user also named with --hook is their own choice: no approval needed.
	const level = configured.has(hook.path) ? "user" : hook.level;
	const source: HookSource = { origin: "discovered", level, provider: hook._source.provider };
	if (hook.entry) return { path: hook.path, source, hook, entry: hook.entry };
	const shell = isModulePath(hook.path) ? undefined : { type: hook.type, tool: hook.tool };
	return { path: hook.path, source, shell, hook };
}

/**
 * Decides which hooks will run (docs/contract.md#loading, #discovery, #trust) without importing any: discovered hooks (highest
 * priority provider first), then the settings' `hooks`, then `configuredPaths` resolved against
 * `cwd`; deduplicated by absolute path, first occurrence wins. Discovered non-module files run as
 * shell hooks. Settings may disable providers and extension ids.
 *
 * The project is found from any folder inside it (src/discovery/project.ts): every layer from `cwd` up to
 * the git root contributes its project hooks and settings `hooks`; an outer layer's hooks keep keys of
 * their own (a nearer layer's hook never shadows them) and are disabled only by the user's settings or
 * their own layer's file. The nearest layer's settings file is the project's.
 *
 * With a trust store, project content cannot weaken the user's own hooks: a project hook never shadows
 * a user hook of the same key (one that does not run is dropped before the first-wins choice, and an
 * approved one runs beside the user's), and the project's settings file may disable project hooks only
 * and cannot set timeouts.
 */
export async function planHooks(configuredPaths: string[], cwd: string, options: DiscoverAndLoadOptions = {}): Promise<HookPlan> {
	const trust = options.trust ?? "all";
	const guarded = trust !== "all";
	const warnings: string[] = [];
	let settings: Settings = {};
	let userSettings: Settings = {};
	const fromSettings: Candidate[] = [];
	// The project of `cwd`, found from any folder inside it: every layer's project hooks apply (src/discovery/project.ts).
	const project = options.climb === false ? { root: cwd, layers: [cwd] } : findProject(cwd, { home: options.home });
	const outer = project.layers.slice(1);
	const outerSettings: Settings[] = [];
	if (options.settings !== false) {
		const loaded = await loadSettings(project.root);
		warnings.push(...loaded.warnings);
		userSettings = loaded.layers.user ?? {};
		// With trust, timeouts and `decisionLog` come from the user's file alone: the project's are dropped (a
		// cloned repository cannot lengthen a guard's time or silence the log). `otlp` is the user's alone
		// with or without trust: a project's file never names where decisions are sent.
		const { hookTimeoutMs: _hook, loadTimeoutMs: _load, decisionLog: _log, otlp: _otlp, ...shared } = loaded.settings;
		const { otlp: _projectOtlp, ...merged } = loaded.settings;
		const { hookTimeoutMs, loadTimeoutMs, decisionLog, otlp } = userSettings;
		const userOtlp = otlp === undefined ? {} : { otlp };
		settings = guarded
			? {
					...shared,
					...(hookTimeoutMs === undefined ? {} : { hookTimeoutMs }),
					...(loadTimeoutMs === undefined ? {} : { loadTimeoutMs }),
					...(decisionLog === undefined ? {} : { decisionLog }),
					...userOtlp,
				}
			: { ...merged, ...userOtlp };
		mark("settings");
		for (const { path, level } of loaded.hookPaths) fromSettings.push({ path, source: { origin: "settings", level } });
		// An outer layer's settings file: its `hooks` (project hooks, relative to its own folder), and what it disables of its own hooks.
		const listed = new Set(loaded.hookPaths.map((h) => h.path));
		for (const [i, layer] of outer.entries()) {
			const read = await readSettingsFile(projectSettingsPath(layer));
			warnings.push(...read.warnings);
			outerSettings[i] = read.settings ?? {};
			for (const raw of read.settings?.hooks ?? []) {
				const path = resolvePath(raw, layer);
				if (listed.has(path)) continue;
				listed.add(path);
				fromSettings.push({ path, source: { origin: "settings", level: "project" }, layer: i + 1 });
			}
		}
	}
	const configuredSet = new Set(configuredPaths.map((path) => resolvePath(path, cwd)));
	const configured = [...configuredSet].map((path): Candidate => ({ path, source: { origin: "configured", level: "user" } }));

	const discovered: Candidate[] = [];
	if (options.discovery !== false) {
		const registry = registerHookDiscovery(options.registry ?? defaultRegistry);
		// What may be disabled for which hooks: everything by the merged settings, or — guarded — the
		// user's choices for every hook and the project's for project hooks only. An outer layer's hooks
		// are disabled only by the user's settings or by their own layer's file, never by a nearer project.
		const everyone = guarded ? userSettings : settings;
		// The system folder is the organisation's guard: no settings file switches it off.
		const excluded = (own: Settings) => [
			...(own.disabledProviders ?? []).filter((id) => id !== SYSTEM_PROVIDER),
			...(options.excludeProviders ?? []),
		];
		const layers = await Promise.all(
			project.layers.map((layer, i) =>
				registry.loadCapability<Hook>("hooks", {
					cwd: layer,
					home: options.home,
					excludeProviders: excluded(i === 0 ? everyone : userSettings),
					includeDisabled: true,
				}),
			),
		);
		const userDisabled = new Set(userSettings.disabledExtensions);
		for (const [i, found] of layers.entries()) {
			for (const warning of found.warnings) if (i === 0 || !warnings.includes(warning)) warnings.push(warning);
			const own = i === 0 ? settings : (outerSettings[i - 1] ?? {});
			const disabled = i === 0 ? new Set(everyone.disabledExtensions) : userDisabled;
			const projectDisabled = new Set(guarded || i > 0 ? own.disabledExtensions : []);
			const projectProviders = new Set(guarded || i > 0 ? own.disabledProviders : []);
			for (const hook of found.all) {
				// The user's and the system's hooks come from the nearest layer's scan; an outer layer adds its project hooks.
				if (hook._invalid || (i > 0 && hook.level !== "project")) continue;
				const candidate = fromDiscovery(hook, configuredSet);
				if (i > 0) candidate.layer = i;
				discovered.push(candidate);
				const id = hookExtensionId(hook);
				if (hook._source.provider === SYSTEM_PROVIDER) continue;
				if (disabled.has(id)) candidate.disabled = guarded || i > 0 ? "by the user's settings" : "by settings";
				else if (candidate.source.level === "project" && (projectDisabled.has(id) || projectProviders.has(hook._source.provider)))
					candidate.disabled = "by the project's settings";
			}
		}
		mark("discovery");
	}

	const candidates = [...discovered, ...fromSettings, ...configured];
	// Team lists are read (and their signatures verified) only when a project hook is not approved locally.
	let team: Promise<TeamApprovals | undefined> | undefined;
	const teamOnce = () => {
		team ??= teamSources(userSettings, warnings).then(async (sources) => {
			if (sources.length === 0) return undefined;
			const loaded = await (await import("../trust/team-list.ts")).loadTeamApprovals(sources);
			warnings.push(...loaded.warnings);
			return loaded;
		});
		return team;
	};
	const trusted = guarded ? await verdicts(candidates, trust, warnings, teamOnce) : undefined;
	mark("trust");
	const plan: HookPlan = { entries: [], load: [], sources: new Map(), failClosed: [], skipped: [], warnings, settings };
	const keys = new Map<string, { path: string; level: HookSource["level"] }>();
	const chosen = new Set<string>();
	let system: import("./system-imports.ts").SystemImportCheck | undefined;
	for (const candidate of candidates) {
		const { path, source, hook } = candidate;
		const entry = (status: PlannedHook["status"], detail?: string) => plan.entries.push({ path, source, hook, status, detail });
		if (candidate.disabled) {
			entry("disabled", candidate.disabled);
			continue;
		}
		// A system hook runs only what is root's alone: a helper a user could change fails it closed.
		if (hook?._source.provider === SYSTEM_PROVIDER) {
			// Required here: machines without a system folder never load the checker.
			system ??= new (require("./system-imports.ts") as typeof import("./system-imports.ts")).SystemImportCheck();
			const problem = system.problemOf(path);
			if (problem) {
				plan.failClosed.push({ path, error: `${problem}; the system hook does not run (fail closed)` });
				entry("fails-closed", problem);
				continue;
			}
		}
		const verdict = trusted?.get(candidate);
		if (verdict && !verdict.run) {
			if (verdict.skip && !plan.skipped.some((s) => s.path === path)) plan.skipped.push(verdict.skip);
			if ("error" in verdict) {
				if (!plan.failClosed.some((e) => e.path === path)) plan.failClosed.push({ path, error: verdict.error });
				entry("fails-closed", verdict.skip?.reason === "changed" ? "changed since it was approved" : verdict.error);
			} else entry("not-approved");
			continue;
		}
		if (hook) {
			// An outer layer's hooks have keys of their own: a nearer project's hook never shadows them.
			const key = candidate.layer ? `${candidate.layer}\0${hookKey(hook)}` : hookKey(hook);
			const winner = keys.get(key);
			// With a trust store the project never switches off the user's own hook: a user hook whose key a
			// project hook took first still runs, beside it (approving a harmless project file must not
			// silence your guard of the same name).
			const keepsUserHook = guarded && source.level === "user" && winner?.level === "project";
			if (winner !== undefined && !keepsUserHook) {
				entry("shadowed", `by ${winner.path}`);
				continue; // shadowed by a higher-priority hook that will run
			}
			if (winner === undefined) keys.set(key, { path, level: source.level });
		}
		if (chosen.has(path)) continue;
		chosen.add(path);
		entry("run");
		if (verdict?.run) {
			const planned = plan.entries.at(-1) as PlannedHook;
			planned.approvedBy = verdict.by === undefined ? "local" : "team";
			if (verdict.by !== undefined) planned.teamList = verdict.by;
		}
		plan.load.push({ path, source, shell: candidate.shell, entry: candidate.entry });
		if (verdict?.run) plan.sources.set(path, verdict.source);
	}
	return plan;
}

/**
 * Discovers hooks and loads them with the configured ones: {@link planHooks}, then {@link loadHooks}
 * of the hooks that run, trusted project hooks from their approved bytes. Project hooks that fail
 * closed are load errors (listed first).
 */
export async function discoverAndLoadHooks(
	configuredPaths: string[],
	cwd: string,
	options: DiscoverAndLoadOptions = {},
): Promise<DiscoverAndLoadResult> {
	const plan = await planHooks(configuredPaths, cwd, options);
	const { settings } = plan;
	const shellHooks = new Map(plan.load.flatMap((c) => (c.shell ? [[c.path, c.shell] as const] : [])));
	const files = plan.load.filter((c) => !c.entry);
	const result = await loadHooks(
		files.map((c) => c.path),
		cwd,
		{
			shellHooks,
			// A shell hook never outlives the handler timeout: its process is killed with it.
			shellTimeoutMs: Math.min(options.shellTimeoutMs ?? DEFAULT_SHELL_HOOK_TIMEOUT_MS, settings.hookTimeoutMs || Number.POSITIVE_INFINITY),
			fresh: options.fresh,
			sources: plan.sources,
			loadTimeoutMs: options.loadTimeoutMs ?? settings.loadTimeoutMs,
		},
	);
	if (files.length < plan.load.length) await addAgentHooks(plan, cwd, result, options.shellTimeoutMs);
	const sourceOf = new Map(plan.load.map((c) => [c.path, c.source]));
	for (const hook of result.hooks) hook.source = sourceOf.get(hook.resolvedPath);
	return { hooks: result.hooks, errors: [...plan.failClosed, ...result.errors], skipped: plan.skipped, warnings: plan.warnings, settings };
}

/**
 * Loads the plan's agent hook entries (src/agent-hooks, imported only when there are some) into
 * `result`, keeping the plan's order. A trusted entry runs only while its content is the approved one.
 */
async function addAgentHooks(plan: HookPlan, cwd: string, result: LoadHooksResult, shellTimeoutMs?: number): Promise<void> {
	const { loadAgentHooks } = await import("./agent-config/load.ts");
	const entries = plan.load.flatMap((c) => (c.entry ? [{ path: c.path, entry: c.entry, approved: plan.sources.get(c.path)?.sha256 }] : []));
	const maxTimeoutMs = Math.min(shellTimeoutMs ?? Number.POSITIVE_INFINITY, plan.settings.hookTimeoutMs || Number.POSITIVE_INFINITY);
	const loaded = await loadAgentHooks(entries, cwd, { maxTimeoutMs });
	const order = new Map(plan.load.map((c, i) => [c.path, i]));
	const at = (path: string) => order.get(path) ?? Number.POSITIVE_INFINITY;
	result.hooks = [...result.hooks, ...loaded.hooks].sort((a, b) => at(a.resolvedPath) - at(b.resolvedPath));
	result.errors = [...result.errors, ...loaded.errors].sort((a, b) => at(a.path) - at(b.path));
}
