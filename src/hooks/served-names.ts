/**
 * The import names the executable (and `bun src/cli.ts`) serves to hooks from its own copy
 * (src/embedded/modules.ts). Kept apart, without imports, so the hook loader can ask "is this served?" without
 * reaching the library: such a name never resolves to a project file, even where a tsconfig
 * `paths` entry maps it (the one `init` writes leads editors to the declarations, not Bun).
 */
export const SERVED_NAMES: ReadonlySet<string> = new Set([
	"xcsh-hooks",
	"xcsh-hooks/hooks",
	"xcsh-hooks/testing",
	"xcsh-hooks/guards",
	"@f5-sales-demo/xcsh/hooks",
	"@sinclair/typebox",
	"@sinclair/typebox/compiler",
	"@sinclair/typebox/errors",
	"@sinclair/typebox/system",
	"@sinclair/typebox/value",
]);
