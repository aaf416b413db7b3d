/**
 * The layering docs/architecture.md describes, checked on the imports themselves, so the map cannot
 * drift from the code: every part of src/ stands on a floor, data flows one way (a part imports only
 * parts on lower floors), and no import circle runs anywhere.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

/**
 * Every `.ts` file under src with the src-relative paths it imports: static imports, `export … from`,
 * bare `import "…"`, dynamic `import()` (types named with `typeof import()` too) and `require`.
 */
function imports(): Array<{ file: string; targets: string[] }> {
	const out: Array<{ file: string; targets: string[] }> = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".ts")) {
				const text = readFileSync(path, "utf8");
				const targets = [...text.matchAll(/(?:\bfrom|\bimport\s*\(|\brequire\s*\(|\bimport)\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) =>
					relative(SRC, normalize(join(dirname(path), m[1] as string))),
				);
				out.push({ file: relative(SRC, path), targets });
			}
		}
	};
	walk(SRC);
	return out;
}

const layerOf = (path: string) => (path.includes("/") ? (path.split("/")[0] as string) : path);

const MAP = join(import.meta.dir, "..", "docs", "architecture.md");

/** The parts of src/ and their floors, as the table of docs/architecture.md gives them (`| 5 | \`agents/\` | … |`). */
function floorsOnTheMap(): Map<string, number> {
	const floors = new Map<string, number>();
	for (const [, floor, part] of readFileSync(MAP, "utf8").matchAll(/^\| (\d+) \| `([^`]+)` \|/gm))
		floors.set((part as string).replace(/\/$/, ""), Number(floor));
	return floors;
}

/** The floors as the page's drawing shows them: floor number → the parts named on its line (and the lines under it). */
function floorsDrawn(): Map<number, string[]> {
	const drawing = /## The floors\s+```text\n([\s\S]*?)```/.exec(readFileSync(MAP, "utf8"))?.[1] ?? "";
	const drawn = new Map<number, string[]>();
	let floor = 0;
	for (const line of drawing.split("\n")) {
		const numbered = /^\s*(\d+)\s+(.*)$/.exec(line);
		if (numbered) floor = Number(numbered[1]);
		const names = (numbered ? (numbered[2] as string) : line).split(/\s+/).filter(Boolean);
		drawn.set(floor, [...(drawn.get(floor) ?? []), ...names.map((name) => name.replace(/\/$/, ""))]);
	}
	return drawn;
}

test("every top-level folder and file of src/ is on the code map (docs/architecture.md), drawn on its floor", () => {
	const parts = readdirSync(SRC)
		.filter((name) => statSync(join(SRC, name)).isDirectory() || name.endsWith(".ts"))
		.sort();
	const floors = floorsOnTheMap();
	expect([...floors.keys()].sort()).toEqual(parts);
	const byFloor = new Map<number, string[]>();
	for (const [part, floor] of floors) byFloor.set(floor, [...(byFloor.get(floor) ?? []), part]);
	const sorted = (map: Map<number, string[]>) =>
		[...map].map(([floor, names]) => [floor, [...names].sort()]).sort((a, b) => Number(b[0]) - Number(a[0]));
	expect(sorted(floorsDrawn())).toEqual(sorted(byFloor));
});

test("a part of src/ imports only parts on lower floors (the code map's floors, enforced)", () => {
	const floors = floorsOnTheMap();
	const problems: string[] = [];
	for (const { file, targets } of imports()) {
		const from = layerOf(file);
		for (const target of targets) {
			const to = layerOf(target);
			// Outside src/ (package.json), or inside the part itself.
			if (to === ".." || to === from) continue;
			const [above, below] = [floors.get(from), floors.get(to)];
			if (above === undefined || below === undefined || below >= above)
				problems.push(`${file} (floor ${above ?? "not on the map"}) imports ${target} (floor ${below ?? "not on the map"})`);
		}
	}
	expect(problems).toEqual([]);
});

/** What a part must not import although it stands above it (docs/architecture.md, "Rules beyond the floors"). */
const NEVER: Record<string, string[]> = {
	// `xcsh-hooks/guards` stands alone: the analyser and its packs need nothing but the hook contracts and the leaves.
	guards: ["exec", "session", "ui", "decisions", "trust", "fs", "declarations", "templates", "intrinsic-damage.ts"],
	// The runner knows no trust store and keeps no decision log: discovery and the callers above it do.
	hooks: ["trust", "decisions", "declarations", "templates"],
};

test("the parts kept lean import none of what they must not, floors aside", () => {
	const problems = imports().flatMap(({ file, targets }) =>
		targets.filter((target) => NEVER[layerOf(file)]?.includes(layerOf(target))).map((target) => `${file} imports ${target}`),
	);
	expect(problems).toEqual([]);
});

/** The folder of an agent (`agents/claude`), or `undefined` for the kit (`agents/_shared`), the registry and everything else. */
const agentFolderOf = (path: string): string | undefined => {
	const [top, folder] = path.split("/");
	return top === "agents" && folder !== undefined && !folder.startsWith("_") && !folder.endsWith(".ts") ? folder : undefined;
};

test("an agent folder imports only the kit and the lower layers, never another agent's folder", () => {
	const allowed = new Set([
		"agents",
		"json.ts",
		"one-line.ts",
		"messages.ts",
		"exec",
		"hooks",
		"paths.ts",
		"freeze.ts",
		"fs",
		"primordials.ts",
		"errors.ts",
		// The package's version, a constant: the plugins written into Node agents send it to the hook server.
		"package-version.ts",
	]);
	const problems: string[] = [];
	for (const { file, targets } of imports()) {
		const own = agentFolderOf(file);
		if (!file.startsWith("agents/") || file === "agents/index.ts") continue;
		for (const target of targets) {
			const to = agentFolderOf(target);
			if (to !== undefined && to !== own) problems.push(`${file} imports another agent's ${target}`);
			else if (target === "agents/index.ts") problems.push(`${file} imports the registry`);
			else if (!allowed.has(layerOf(target))) problems.push(`${file} imports ${target}`);
		}
	}
	expect(problems).toEqual([]);
});

test("outside src/agents/, code reaches an agent only through the registry (src/agents/index.ts)", () => {
	// The demo shows Claude Code by name, with a payload captured from it.
	const exceptions = new Set(["demo/run-demo.ts > agents/claude/sample.ts"]);
	const problems = imports()
		.filter(({ file }) => !file.startsWith("agents/"))
		.flatMap(({ file, targets }) => targets.filter((t) => agentFolderOf(t) !== undefined).map((t) => `${file} > ${t}`))
		.filter((edge) => !exceptions.has(edge));
	expect(problems).toEqual([]);
});

/** Strings that only an agent's protocol uses: payload fields, answer fields, event and tool field names. */
const PROTOCOL_STRINGS = [
	"hookSpecificOutput",
	"permissionDecision",
	"updatedInput",
	"additionalContext",
	"hook_event_name",
	"tool_input",
	"transcript_path",
	"systemMessage",
	"toolArgs",
	"PreToolUse",
	"PostToolUse",
	"UserPromptSubmit",
	"BeforeTool",
	"AfterTool",
	"beforeShellExecution",
	"onFailure",
	"CLAUDE_PROJECT_DIR",
	"GEMINI_PROJECT_DIR",
	"CURSOR_PROJECT_DIR",
	"COPILOT_PROJECT_DIR",
];

/** A file's code without its comments (line comments, block comments and JSDoc), strings kept. */
function codeOf(text: string): string {
	return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

test("no file outside src/agents/ holds an agent's protocol strings (comments aside)", () => {
	const problems: string[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) {
				if (relative(SRC, path) !== "agents") walk(path);
			} else if (name.endsWith(".ts")) {
				const code = codeOf(readFileSync(path, "utf8"));
				for (const word of PROTOCOL_STRINGS) if (code.includes(word)) problems.push(`${relative(SRC, path)}: ${word}`);
			}
		}
	};
	walk(SRC);
	expect(problems).toEqual([]);
});

/** Strongly connected groups of files (Tarjan) in the import graph of src/: each group of two or more files is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const groups: string[][] = [];
	let next = 0;
	const visit = (v: string) => {
		index.set(v, next);
		low.set(v, next++);
		stack.push(v);
		onStack.add(v);
		for (const w of graph.get(v) ?? []) {
			if (!graph.has(w)) continue;
			if (!index.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
		}
		if (low.get(v) === index.get(v)) {
			const group: string[] = [];
			let w: string;
			do {
				w = stack.pop() as string;
				onStack.delete(w);
				group.push(w);
			} while (w !== v);
			if (group.length > 1) groups.push(group.sort());
		}
	};
	for (const v of graph.keys()) if (!index.has(v)) visit(v);
	return groups;
}

/** One loop through a circle, as `a.ts > b.ts > … > a.ts` (the shortest from its first file back to it). */
function loopThrough(graph: Map<string, string[]>, group: string[]): string {
	const inside = new Set(group);
	const start = group[0] as string;
	const cameFrom = new Map<string, string>();
	const queue = [start];
	while (queue.length > 0) {
		const v = queue.shift() as string;
		for (const w of graph.get(v) ?? []) {
			if (!inside.has(w) || cameFrom.has(w)) continue;
			cameFrom.set(w, v);
			if (w === start) {
				const path: string[] = [];
				for (let at = v; at !== start; at = cameFrom.get(at) as string) path.unshift(at);
				return [start, ...path, start].join(" > ");
			}
			queue.push(w);
		}
	}
	return group.join(", ");
}

test("no import circle anywhere in src/ (static, dynamic, require, type and re-export imports alike)", () => {
	// A file naming itself (the package root hands its own namespace to the hook loader) is no circle between files.
	const graph = new Map(imports().map(({ file, targets }) => [file, targets.filter((target) => target !== file)]));
	expect(circles(graph).map((group) => `${group.length} files: ${loopThrough(graph, group)}`)).toEqual([]);
});

test("a tool call is decided one way: its reasons are formed in decisions/decide.ts, its record written by decisions/write.ts", () => {
	// What only the one decider may say (load errors, the deciding hook), and the one call that writes the log.
	const owners: Array<[RegExp, string]> = [
		[/failed to load \(fail closed/, "decisions/decide.ts"],
		[/\[xcsh-hooks: /, "decisions/decide.ts"],
		[/failed \(fail closed\)/, "decisions/decide.ts"],
		[/\bappendDecision\(/, "decisions/write.ts"],
	];
	const problems: string[] = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".ts")) {
				const file = relative(SRC, path);
				const code = codeOf(readFileSync(path, "utf8")).replace(/export function appendDecision\(/, "");
				for (const [said, owner] of owners) if (file !== owner && said.test(code)) problems.push(`${file}: ${said.source}`);
			}
		}
	};
	walk(SRC);
	expect(problems).toEqual([]);
});
