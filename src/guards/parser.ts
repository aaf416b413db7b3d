/// <reference path="./wasm.d.ts" />
/**
 * The shell parser: tree-sitter's bash grammar, run as WebAssembly (`web-tree-sitter` +
 * `tree-sitter-bash`). Both `.wasm` files are imported as files, so `bun build --compile` embeds
 * them and the executable parses with no `node_modules` beside it.
 *
 * Why tree-sitter and not `sh-syntax` (mvdan/sh as WASM), measured here with Bun 1.4.5:
 * - speed: a parser instance is reused, a typical command parses in ≈ 0.03 ms; `sh-syntax`
 *   instantiates a fresh Go WASM module per call, ≈ 29 ms per parse — 150× the whole decision budget;
 * - accuracy: both read the tricky inputs (heredocs, `$( )`, `<( )`, `[[ ]]`, quoting); tree-sitter
 *   also returns a tree for broken input with the errors marked, so the guard can say *where* it failed;
 * - size: ≈ 1.7 MB added to the executable (runtime 0.2 MB + grammar 1.3 MB, plus glue), against
 *   0.7 MB for `sh-syntax`; worth it for the speed;
 * - cost: loading both modules takes ≈ 35 ms, once per process, and only in a process whose hooks
 *   ask for the guard.
 */
import { Language, type Node, Parser, type Tree } from "web-tree-sitter";
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };

export type { Node as ShellNode, Tree as ShellTree };

/**
 * An embedded file's path. `xcsh-hooks test` copies the executable's chunks out of `/$bunfs` and
 * turns their `/$bunfs/root/` paths into `./`: those are relative to the chunk, not to the cwd.
 */
const beside = (path: string) => (path.startsWith("./") ? `${import.meta.dir}/${path.slice(2)}` : path);

let loading: Promise<Parser> | undefined;
let loaded: Parser | undefined;

/** Loads the parser once per process; later calls resolve to the same instance. */
export function loadShellParser(): Promise<Parser> {
	loading ??= (async () => {
		await Parser.init({ wasmBinary: await Bun.file(beside(runtimeWasm)).bytes() });
		const language = await Language.load(await Bun.file(beside(bashWasm)).bytes());
		const parser = new Parser();
		parser.setLanguage(language);
		loaded = parser;
		return parser;
	})();
	return loading;
}

/** The parser when {@link loadShellParser} has finished, else `undefined`. */
export function loadedShellParser(): Parser | undefined {
	return loaded;
}
