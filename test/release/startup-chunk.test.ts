/**
 * scripts/startup-chunk.ts: the entry's static graph is bundled into the entry's chunk and each lazy
 * group into one chunk, with modules still evaluated once, in their order, and their state shared
 * with the lazy code that imports them through stand-ins.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { registryCopy, startupChunk } from "../../scripts/startup-chunk.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

/** A program whose entry and lazy modules share state, and a cold group of two modules. */
const FILES = {
	"entry.ts": `import "./first.ts";
import { bump, count } from "./state.ts";
bump();
const lazy = await import("./lazy.ts");
const cold = await import("./cold.ts");
console.log(JSON.stringify({ order: globalThis.order, entry: count(), lazy: lazy.bumpFromLazy(), cold: cold.coldCount() }));
`,
	"first.ts": `(globalThis.order ??= []).push("first:module");\n`,
	"state.ts": `(globalThis.order ??= []).push("state:module");
let n = 0;
export function bump() { n++; }
export function count() { return n; }
export const LABEL = "state";
`,
	"lazy.ts": `import { bump, count } from "./state.ts";
import { shared } from "./cold-shared.ts";
export function bumpFromLazy() { bump(); return count() + shared().length * 0; }
`,
	"cold.ts": `import { count } from "./state.ts";
import { shared } from "./cold-shared.ts";
(globalThis.order ??= []).push("cold:module");
export function coldCount() { return count() + shared().length * 0; }
`,
	"cold-shared.ts": `(globalThis.order ??= []).push("cold-shared:module");
export function shared() { return "cold-shared"; }
`,
};

/** Builds the fixture in `dir` (with the plugin or without); the bundler's messages when it fails. */
async function build(dir: string, plugin: boolean): Promise<{ outdir: string; outputs: string[]; failure?: string }> {
	const outdir = join(dir, plugin ? "with" : "without");
	const entry = join(dir, "entry.ts");
	const result = await Bun.build({
		entrypoints: [entry],
		outdir,
		target: "bun",
		format: "esm",
		splitting: true,
		plugins: plugin ? [startupChunk(entry, dir, [[join(dir, "cold.ts")]], new Set())] : [],
		throw: false,
	});
	if (!result.success) return { outdir, outputs: [], failure: result.logs.map(String).join("\n") };
	return { outdir, outputs: readdirSync(outdir) };
}

/** The output files that hold `marker` (a module's own text). */
function holders(outdir: string, outputs: string[], marker: string): string[] {
	return outputs.filter((name) => readFileSync(join(outdir, name), "utf8").includes(marker));
}

test("the entry's static imports land in its chunk and a lazy group in one chunk, evaluated once and in order", async () => {
	const dir = tempDir("xcsh-startup-chunk-");
	writeFiles(dir, FILES);
	// Without the plugin Bun splits them: what the plugin is for.
	const plain = await build(dir, false);
	expect(plain.failure).toBeUndefined();
	expect(holders(plain.outdir, plain.outputs, "state:module")).not.toEqual(["entry.js"]);
	const withPlugin = await build(dir, true);
	expect(withPlugin.failure).toBeUndefined();
	expect(holders(withPlugin.outdir, withPlugin.outputs, "state:module")).toEqual(["entry.js"]);
	expect(holders(withPlugin.outdir, withPlugin.outputs, "first:module")).toEqual(["entry.js"]);
	const cold = holders(withPlugin.outdir, withPlugin.outputs, "cold:module");
	expect(cold).toHaveLength(1);
	expect(holders(withPlugin.outdir, withPlugin.outputs, "cold-shared:module")).toEqual(cold);
	const run = Bun.spawnSync([process.execPath, join(withPlugin.outdir, "entry.js")], { cwd: dir, env: process.env });
	expect(run.stderr.toString()).toBe("");
	// Bun's own split evaluates state.ts (its own chunk, imported first) before first.ts (kept in the entry).
	expect(JSON.parse(run.stdout.toString())).toEqual({
		order: ["first:module", "state:module", "cold-shared:module", "cold:module"],
		entry: 1,
		lazy: 2,
		cold: 2,
	});
}, 30_000);

test("a start-up module that exports a binding it can reassign fails the build, named", async () => {
	const dir = tempDir("xcsh-startup-chunk-let-");
	writeFiles(dir, { ...FILES, "state.ts": `export let n = 0;\nexport function bump() { n++; }\nexport function count() { return n; }\n` });
	const { failure } = await build(dir, true);
	expect(failure).toMatch(/state\.ts: a start-up module exports a binding it may reassign/);
}, 30_000);

test("the registry's copy, for a process without the entry, holds the start-up modules that export something", async () => {
	const dir = tempDir("xcsh-startup-chunk-copy-");
	writeFiles(dir, FILES);
	writeFiles(dir, { "copy.js": await registryCopy(join(dir, "entry.ts"), dir, new Set(), []) });
	const probe = `await import("./copy.js");
const registry = globalThis[Symbol.for("xcsh-hooks.startup-modules")];
registry["state.ts"].bump();
console.log(JSON.stringify({ modules: Object.keys(registry), count: registry["state.ts"].count(), order: globalThis.order }));
`;
	writeFiles(dir, { "probe.js": probe });
	const run = Bun.spawnSync([process.execPath, join(dir, "probe.js")], { cwd: dir, env: process.env });
	expect(run.stderr.toString()).toBe("");
	// first.ts exports nothing (like the start guard): left out, never evaluated.
	expect(JSON.parse(run.stdout.toString())).toEqual({ modules: ["state.ts"], count: 1, order: ["state:module"] });
}, 30_000);
