import { existsSync } from "node:fs";
import { join, relative } from "pathe";
import { homeDir, resolvePath, userAgentDir } from "../paths.ts";
import { cliError, EXIT_OK, defineCommand, printJson, projectArgs, projectDir, writeOut } from "./_shared.ts";
import { projectRootFor } from "./_project-root.ts";
import { PACKAGE_VERSION } from "./version.ts";

/** Where `types` and `init` put the declarations: beside the hooks folder, so its tsconfig says `../types`. */
export function defaultTypesDir(cwd: string, user: boolean): string {
	return user ? join(userAgentDir(), "types") : join(cwd, ".xcsh", "types");
}

/** What `init` and `types` report about the editor setup. */
export interface EditorSetup {
	typesDir: string;
	files: number;
	bytes: number;
	/** The hooks folder's tsconfig.json, when this run wrote it (an existing one is never rewritten). */
	tsconfig?: string;
}

/**
 * Writes the declarations into `typesDir` and, when `hooksDir` is given and has no tsconfig.json
 * yet, one that leads the library's names there. Throws a {@link cliError} naming what is in the way.
 */
export async function setUpEditor(typesDir: string, hooksDir?: string): Promise<EditorSetup> {
	const { writeTypes, editorTsconfig } = await import("../declarations/index.ts");
	let written: { files: number; bytes: number };
	try {
		written = await writeTypes(typesDir, PACKAGE_VERSION);
	} catch (error) {
		throw cliError((error as Error).message);
	}
	const setup: EditorSetup = { typesDir, ...written };
	if (hooksDir) {
		const tsconfig = join(hooksDir, "tsconfig.json");
		if (!existsSync(tsconfig)) {
			await Bun.write(tsconfig, editorTsconfig(hooksDir, typesDir));
			setup.tsconfig = tsconfig;
		}
	}
	return setup;
}

/** `path` for display: `./x` below the current directory, `~/x` below HOME, else absolute. */
export function shownPath(path: string): string {
	const rel = relative(process.cwd(), path);
	if (rel === "") return ".";
	if (!rel.startsWith("..") && !rel.startsWith("/")) return `./${rel}`;
	const home = homeDir();
	return path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** `xcsh-hooks types [--out DIR]`: writes the library's declarations, from the executable, for editors and tsc. */
export const typesCommand = defineCommand({
	meta: {
		name: "types",
		description: "Write type declarations for editors and tsc",
		details:
			"Write type declarations for editors and tsc, from this program. " +
			"The library's, Bun's, Node's and TypeBox's go to .xcsh/types (or --out DIR); the tsconfig.json that " +
			"`init` writes in .xcsh/hooks leads editors there, with no node_modules",
	},
	args: {
		out: { type: "string", description: "Folder to write (default .xcsh/types; ~/.xcsh/agent/types with --user)", valueHint: "dir" },
		user: { type: "boolean", description: "For user hooks: ~/.xcsh/agent/types, and a tsconfig.json in ~/.xcsh/agent/hooks" },
		...projectArgs,
	},
	async run({ args }) {
		const user = Boolean(args.user);
		const out = args.out === undefined ? undefined : String(args.out);
		// The project's own layout goes to its root when run below it (said on stderr).
		const cwd = out === undefined && !user ? await projectRootFor(projectDir(args.cwd)) : projectDir(args.cwd);
		if (out === "") throw cliError("--out needs a folder");
		const typesDir = out === undefined ? defaultTypesDir(cwd, user) : resolvePath(out, process.cwd());
		// The tsconfig goes with the default layout only: for another folder the user wires `paths` themselves.
		const hooksDir = out === undefined ? (user ? join(userAgentDir(), "hooks") : join(cwd, ".xcsh", "hooks")) : undefined;
		const setup = await setUpEditor(typesDir, hooksDir);
		if (args.json) {
			await printJson({ dir: setup.typesDir, files: setup.files, bytes: setup.bytes, tsconfig: setup.tsconfig ?? null });
			return EXIT_OK;
		}
		const lines = [`Wrote ${setup.files} declaration files (${mib(setup.bytes)}) to ${shownPath(setup.typesDir)}`];
		if (setup.tsconfig) lines.push(`Wrote ${shownPath(setup.tsconfig)}: editors and \`tsc -p\` resolve "xcsh-hooks" there`);
		else if (hooksDir) lines.push(`Kept ${shownPath(join(hooksDir, "tsconfig.json"))} as it is`);
		else
			lines.push(
				`Map the names in your tsconfig.json "paths": "xcsh-hooks": ["${shownPath(setup.typesDir)}/xcsh-hooks/index.d.ts"], ` +
					`"xcsh-hooks/hooks": ["${shownPath(setup.typesDir)}/xcsh-hooks/hooks-surface.d.ts"], ` +
					`"xcsh-hooks/*": ["${shownPath(setup.typesDir)}/xcsh-hooks/*/index.d.ts"]`,
			);
		await writeOut(lines.join("\n"));
		return EXIT_OK;
	},
});
