/**
 * What a module loads besides its imports (src/hooks/import-graph.ts importsOf): the forms Bun's import
 * scanner misses — import.meta.require, createRequire, a Worker's entry — are in the graph, written as
 * people write them; a commented-out one is not.
 */
import { expect, test } from "bun:test";
import { importsOf } from "../../src/hooks/import-graph.ts";

const scan = (code: string) => importsOf("/project/.xcsh/hooks/guard.ts", new TextEncoder().encode(code));

test("import.meta.require, createRequire and every Worker form join the graph", () => {
	const code = `import * as wt from "node:worker_threads";
import { createRequire } from "node:module";
const a = import.meta.require ("../../lib/a");
const b = createRequire(import.meta.url)("../../lib/b.ts");
new wt.Worker(new URL("../../lib/c.ts", import.meta.url));
new globalThis.Worker ("./d.ts");
new Worker(
	new URL("./e.ts", import.meta.url).href,
);
const typed: string = "x";
export default (pi: unknown) => pi;
`;
	expect(scan(code).sort()).toEqual([
		"../../lib/a",
		"../../lib/b.ts",
		"../../lib/c.ts",
		"./d.ts",
		"./e.ts",
		"node:module",
		"node:worker_threads",
	]);
});

test("a commented-out Worker or require names nothing; a computed one is not guessed", () => {
	const code = `// new Worker("./old-worker.wasm")
/* import.meta.require("./old.ts") */
const name = "x";
new Worker(\`./workers/\${name}.ts\`);
import.meta.require(name);
export default (pi) => pi;
`;
	expect(scan(code)).toEqual([]);
});
