/**
 * What the executable serves to the hooks it loads (docs/contract.md#the-executable-serves-the-library), by import specifier. Each loader
 * imports the copy bundled into the executable — the very module instance the CLI runs, so a
 * hook's `HookRunner` is the CLI's `HookRunner`. The imports are dynamic: the bundler turns each
 * into a chunk that is read and evaluated only when a hook first asks for it (a `require` here would
 * put the whole library into the entry chunk, loaded on every start-up).
 */
type Loader = () => Promise<Record<string, unknown>>;

/** This package's own entry points, named as in its `exports` map. */
export const LIBRARY_MODULES: Readonly<Record<string, Loader>> = {
	"xcsh-hooks": () => import("../index.ts"),
	"xcsh-hooks/hooks": () => import("../hooks-surface.ts"),
	"xcsh-hooks/testing": () => import("../testing/index.ts"),
	"xcsh-hooks/guards": () => import("../guards/index.ts"),
	// The seed's package name: hooks written for it run unchanged.
	"@f5-sales-demo/xcsh/hooks": () => import("../hooks-surface.ts"),
};

/** Dependencies a hook may use as values. Each loader imports the very specifier it serves (see `register.ts`). */
export const PACKAGE_MODULES: Readonly<Record<string, Loader>> = {
	"@sinclair/typebox": () => import("@sinclair/typebox"),
	"@sinclair/typebox/compiler": () => import("@sinclair/typebox/compiler"),
	"@sinclair/typebox/errors": () => import("@sinclair/typebox/errors"),
	"@sinclair/typebox/system": () => import("@sinclair/typebox/system"),
	"@sinclair/typebox/value": () => import("@sinclair/typebox/value"),
};
