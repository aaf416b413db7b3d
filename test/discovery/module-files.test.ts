import { expect, test } from "bun:test";
import { join } from "node:path";
import { discoverAndLoadHooks } from "../../src/discovery/index.ts";
import { isModulePath, MODULE_GLOB, MODULE_LOADERS } from "../../src/hooks/module-files.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

test("every extension the loader imports is discovered too (one list: .tsx and .cts included)", async () => {
	const cwd = tempDir();
	const home = tempDir("xcsh-hooks-home-");
	const files: Record<string, string> = {};
	for (const ext of Object.keys(MODULE_LOADERS))
		files[`.xcsh/hooks/h${ext.replace(".", "-")}${ext}`] =
			ext === ".cjs" || ext === ".cts"
				? `module.exports = (pi) => pi.on("agent_start", () => {});\n`
				: `export default (pi) => pi.on("agent_start", () => {});\n`;
	writeFiles(cwd, files);
	const loaded = await discoverAndLoadHooks([], cwd, { home, settings: false });
	expect(loaded.errors).toEqual([]);
	expect(loaded.hooks.map((h) => h.resolvedPath.split(".").pop()).sort()).toEqual(
		Object.keys(MODULE_LOADERS)
			.map((e) => e.slice(1))
			.sort(),
	);
	expect(MODULE_GLOB).toBe("*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}");
	expect(isModulePath(join(cwd, "x.d.ts"))).toBe(false);
});
