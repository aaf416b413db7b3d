/**
 * What the executable serves to the hooks it loads (SPEC §9), by import specifier. Each loader
 * imports the copy bundled into the executable — the very module instance the CLI runs, so a
 * hook's `HookRunner` is the CLI's `HookRunner`. The loaders `require` synchronously, so a served
 * module is evaluated only when something first asks for it, and is itself synchronous: our own
 * lazy `require`s of TypeBox (validate.ts) go through this plugin from source and must not meet an
 * async module.
 */
type Loader = () => Record<string, unknown>;

/** This package's own entry points, named as in its `exports` map. */
export const LIBRARY_MODULES: Readonly<Record<string, Loader>> = {
	"xcsh-hooks": () => require("../index.ts"),
	"xcsh-hooks/hooks": () => require("../hooks/index.ts"),
	"xcsh-hooks/testing": () => require("../testing/index.ts"),
	// The seed's package name: hooks written for it run unchanged.
	"@f5-sales-demo/xcsh/hooks": () => require("../hooks/index.ts"),
};

/** Dependencies a hook may use as values. Each loader imports the very specifier it serves (see `register.ts`). */
export const PACKAGE_MODULES: Readonly<Record<string, Loader>> = {
	"@sinclair/typebox": () => require("@sinclair/typebox"),
	"@sinclair/typebox/compiler": () => require("@sinclair/typebox/compiler"),
	"@sinclair/typebox/errors": () => require("@sinclair/typebox/errors"),
	"@sinclair/typebox/system": () => require("@sinclair/typebox/system"),
	"@sinclair/typebox/value": () => require("@sinclair/typebox/value"),
};
