import { XcshError } from "../../errors.ts";
import { resolve } from "pathe";
import { homeDir } from "../../paths.ts";

/** A kind of thing that can be discovered (hooks, …), with the rules that merge what providers find. */
export interface CapabilityDefinition<T> {
	/** Unique id, e.g. `"hooks"`. */
	id: string;
	/** Human-readable name, used in warnings (`Invalid hook …`). */
	displayName: string;
	description: string;
	/** Identity of an item: items with equal keys shadow each other (first one wins). */
	key: (item: T) => string;
	/** Error message when the item is unusable, `undefined` when it is fine. */
	validate?: (item: T) => string | undefined;
	/** The id users put in `disabledExtensions` to turn the item off. */
	toExtensionId?: (item: T) => string;
}

/** What a provider's `load` is given. */
export interface LoadContext {
	/** Project directory, made absolute. */
	cwd: string;
	/** User home directory, read at load time. */
	home: string;
}

/** What a provider's `load` returns: items plus non-fatal problems, never a throw for bad input. */
export interface LoadResult<T> {
	items: T[];
	warnings?: string[];
}

/** A source of items for one capability. */
export interface ProviderDefinition<T> {
	/** Unique within its capability, e.g. `"native"`; what `providers`/`excludeProviders` name. */
	id: string;
	displayName: string;
	description: string;
	/** Higher runs first and wins key collisions; equal priorities keep registration order. */
	priority: number;
	load: (ctx: LoadContext) => Promise<LoadResult<T>> | LoadResult<T>;
	/** Where `load` looks (folders it scans, files it reads), for watchers that reload on change. */
	watch?: (ctx: LoadContext) => WatchedPlaces;
}

/** The folders and files a provider reads. */
export interface WatchedPlaces {
	dirs?: string[];
	files?: string[];
}

/** Options of {@link CapabilityRegistry.loadCapability}. */
export interface LoadCapabilityOptions {
	/** Project directory handed to every provider. */
	cwd: string;
	/** User home handed to every provider; default `HOME` at load time. A sandbox (the demo) points it elsewhere. */
	home?: string | undefined;
	/** Only run these provider ids (unknown ids are ignored). */
	providers?: string[];
	/** Never run these provider ids. */
	excludeProviders?: string[];
	/** Extension ids (see `toExtensionId`) whose items are dropped from `items`. */
	disabledExtensions?: string[];
	/** Keep disabled items in `items` (they are always in `all`, marked `_disabled`). */
	includeDisabled?: boolean;
	/** Keep items that fail `validate` in `items` (the warning is still reported). */
	includeInvalid?: boolean;
}

/** An entry of `all`: the item plus why it is not (or would not be) in `items`. */
export type CapabilityItem<T> = T & {
	/** A higher-priority item had the same key. */
	_shadowed?: boolean;
	/** Its extension id is in `disabledExtensions`. */
	_disabled?: boolean;
	/** The `validate` message. */
	_invalid?: string;
};

/** One provider that ran, with how many items it returned (before dedup). */
export interface ProviderSummary {
	id: string;
	displayName: string;
	priority: number;
	itemCount: number;
}

/** Result of {@link CapabilityRegistry.loadCapability}. */
export interface CapabilityResult<T> {
	/** Usable items: deduplicated, valid, enabled; highest priority first. */
	items: T[];
	/** Everything every provider returned, in merge order, shadowed/disabled/invalid ones marked. */
	all: CapabilityItem<T>[];
	warnings: string[];
	providers: ProviderSummary[];
}

interface Entry {
	definition: CapabilityDefinition<unknown>;
	providers: ProviderDefinition<unknown>[];
}

/**
 * Capabilities a registry defines on first use: id → a function that defines it (and registers its
 * providers) on the registry it is given.
 */
export type BuiltinCapabilities = Readonly<Record<string, (registry: CapabilityRegistry) => void>>;

/** Capabilities and their providers. Use the module-level functions for the shared default instance. */
export class CapabilityRegistry {
	readonly #capabilities = new Map<string, Entry>();
	/** Built-in capabilities not defined yet: defined the first time their id is used, never at construction. */
	readonly #builtins: Map<string, (registry: CapabilityRegistry) => void>;

	/**
	 * @param builtins capabilities defined on first use of their id (loading it, adding or listing its
	 * providers), so that creating or importing a registry defines and registers nothing.
	 */
	constructor(builtins: BuiltinCapabilities = {}) {
		this.#builtins = new Map(Object.entries(builtins));
	}

	/**
	 * Registers a capability; a second definition with the same id throws. Defining a built-in id before
	 * its first use replaces the built-in (that is what `registerHookDiscovery` does for `"hooks"`).
	 */
	defineCapability<T>(definition: CapabilityDefinition<T>): CapabilityDefinition<T> {
		if (this.#capabilities.has(definition.id))
			throw new XcshError("ALREADY_REGISTERED", `Capability "${definition.id}" is already defined`);
		this.#builtins.delete(definition.id);
		this.#capabilities.set(definition.id, {
			definition: definition as CapabilityDefinition<unknown>,
			providers: [],
		});
		return definition;
	}

	/** Adds a provider to a defined capability; unknown capability or duplicate provider id throws. */
	registerProvider<T>(capabilityId: string, provider: ProviderDefinition<T>): ProviderDefinition<T> {
		const entry = this.#entry(capabilityId);
		if (entry.providers.some((p) => p.id === provider.id))
			throw new XcshError("ALREADY_REGISTERED", `Provider "${provider.id}" is already registered for capability "${capabilityId}"`);
		entry.providers.push(provider as ProviderDefinition<unknown>);
		return provider;
	}

	/** Whether a capability with this id is defined (a built-in one once it was first used). */
	hasCapability(id: string): boolean {
		return this.#capabilities.has(id);
	}

	/** Whether the capability has a provider with this id (a built-in capability is defined first). */
	hasProvider(capabilityId: string, providerId: string): boolean {
		this.#defineBuiltin(capabilityId);
		return this.#capabilities.get(capabilityId)?.providers.some((p) => p.id === providerId) ?? false;
	}

	/** Registered providers of a capability, in merge order (priority, then registration). */
	getProviders(capabilityId: string): ProviderDefinition<unknown>[] {
		return sortByPriority(this.#entry(capabilityId).providers);
	}

	/** Runs the providers concurrently and merges their items (see {@link CapabilityResult}). */
	async loadCapability<T>(id: string, options: LoadCapabilityOptions): Promise<CapabilityResult<T>> {
		const entry = this.#entry(id);
		const definition = entry.definition as CapabilityDefinition<T>;
		const only = options.providers && new Set(options.providers);
		const excluded = new Set(options.excludeProviders ?? []);
		const providers = sortByPriority(entry.providers as ProviderDefinition<T>[]).filter(
			(p) => (!only || only.has(p.id)) && !excluded.has(p.id),
		);
		const ctx: LoadContext = { cwd: resolve(options.cwd), home: options.home ?? homeDir() };
		const results = await Promise.all(providers.map((p) => runProvider(p, ctx)));

		const warnings: string[] = [];
		const items: T[] = [];
		const all: CapabilityItem<T>[] = [];
		const seen = new Set<string>();
		const disabled = new Set(options.disabledExtensions ?? []);
		providers.forEach((provider, index) => {
			const result = results[index] as LoadResult<T>;
			for (const warning of result.warnings ?? []) warnings.push(`[${provider.displayName}] ${warning}`);
			for (const item of result.items) {
				const key = definition.key(item);
				if (seen.has(key)) {
					all.push({ ...item, _shadowed: true });
					continue;
				}
				seen.add(key);
				const isDisabled = !!definition.toExtensionId && disabled.has(definition.toExtensionId(item));
				if (isDisabled && !options.includeDisabled) {
					all.push({ ...item, _disabled: true });
					continue;
				}
				const problem = runValidate(definition, item);
				if (problem !== undefined) {
					warnings.push(`[${provider.displayName}] Invalid ${definition.displayName} ${describe(item, key)}: ${problem}`);
					all.push({ ...item, _invalid: problem, ...(isDisabled ? { _disabled: true } : {}) });
					if (options.includeInvalid) items.push(item);
					continue;
				}
				all.push(isDisabled ? { ...item, _disabled: true } : (item as CapabilityItem<T>));
				items.push(item);
			}
		});
		const summaries = providers.map((p, index) => ({
			id: p.id,
			displayName: p.displayName,
			priority: p.priority,
			itemCount: (results[index] as LoadResult<T>).items.length,
		}));
		return { items, all, warnings, providers: summaries };
	}

	/** Defines a built-in capability on its first use; it is taken off the list first, so its definer may use the registry. */
	#defineBuiltin(id: string): void {
		if (this.#capabilities.has(id)) return;
		const define = this.#builtins.get(id);
		if (!define) return;
		this.#builtins.delete(id);
		define(this);
	}

	#entry(id: string): Entry {
		this.#defineBuiltin(id);
		const entry = this.#capabilities.get(id);
		if (!entry) throw new XcshError("UNKNOWN_NAME", `Unknown capability "${id}"`);
		return entry;
	}
}

async function runProvider<T>(provider: ProviderDefinition<T>, ctx: LoadContext): Promise<LoadResult<T>> {
	try {
		const result = await provider.load(ctx);
		if (!result || !Array.isArray(result.items)) throw new XcshError("INVALID_INPUT", "provider returned no items array");
		return result;
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return { items: [], warnings: [`Failed to load: ${message}`] };
	}
}

function runValidate<T>(definition: CapabilityDefinition<T>, item: T): string | undefined {
	try {
		return definition.validate?.(item);
	} catch (error) {
		return `validation failed: ${error instanceof Error ? error.message : String(error)}`;
	}
}

/** Stable: `Array.prototype.sort` keeps registration order among equal priorities. */
function sortByPriority<P extends { priority: number }>(providers: P[]): P[] {
	return [...providers].sort((a, b) => b.priority - a.priority);
}

function describe(item: unknown, key: string): string {
	const path = (item as { path?: unknown } | null)?.path;
	return typeof path === "string" ? path : key;
}
