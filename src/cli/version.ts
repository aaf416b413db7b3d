import { PACKAGE_VERSION as VERSION } from "../package-version.ts";
import { EXIT_OK, defineCommand, printJson, writeOut } from "./_shared.ts";

/** This package's version, from its package.json. */
export const PACKAGE_VERSION: string = VERSION;

/** One line: the package version and the Bun runtime inside (`xcsh-hooks 0.1.0 (Bun 1.4.5)`). */
export function versionLine(): string {
	return `xcsh-hooks ${PACKAGE_VERSION} (Bun ${Bun.version})`;
}

/** `xcsh-hooks version`: the same line as `--version`, or `{version, bun}` with `--json`. */
export const versionCommand = defineCommand({
	meta: {
		name: "version",
		description: "Print the version of xcsh-hooks and of the Bun inside",
		details: "Print the package version and the version of Bun inside",
	},
	args: { json: { type: "boolean", description: "Print machine-readable JSON" } },
	async run({ args }) {
		if (args.json) await printJson({ version: PACKAGE_VERSION, bun: Bun.version });
		else await writeOut(versionLine());
		return EXIT_OK;
	},
});
