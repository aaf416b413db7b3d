import { dirname, relative } from "pathe";

/** The names `xcsh-hooks test` runs: bun:test's test files. */
export const TEST_FILES = "*.test.{ts,tsx,js,mjs,mts}";

/** Test files of `dir`: directly in it, or (`deep`) anywhere below it, hidden folders included, never `node_modules`. */
export function testFilesIn(dir: string, deep: boolean): string[] {
	const glob = new Bun.Glob(deep ? `**/${TEST_FILES}` : TEST_FILES);
	let found: string[];
	try {
		found = [...glob.scanSync({ cwd: dir, dot: true, absolute: true, onlyFiles: true })];
	} catch {
		return []; // a folder that went away or cannot be listed holds no test to run
	}
	return found.filter((path) => !relative(dir, path).split("/").includes("node_modules")).sort();
}

/** The test files beside hook files (`*.test.*` in each hook's folder): what `test` runs and `trust` lists. */
export function testsBeside(hookFiles: string[]): string[] {
	return [...new Set([...new Set(hookFiles.map((path) => dirname(path)))].flatMap((dir) => testFilesIn(dir, false)))];
}
