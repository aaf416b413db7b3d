/**
 * The layering docs/architecture.md describes, checked on the imports themselves,
 * so the map cannot drift from the code: data flows one way, and lower layers never import the ones
 * that drive them.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

/** Every `.ts` file under src with the src-relative paths it imports (static, dynamic and require). */
function imports(): Array<{ file: string; targets: string[] }> {
	const out: Array<{ file: string; targets: string[] }> = [];
	const walk = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) walk(path);
			else if (name.endsWith(".ts")) {
				const text = readFileSync(path, "utf8");
				const targets = [...text.matchAll(/(?:from|import\(|require\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) =>
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

/** Layers and what each must never import. */
const FORBIDDEN: Record<string, string[]> = {
	"paths.ts": ["*"],
	"json.ts": ["*"],
	"timeouts.ts": ["*"],
	"primordials.ts": ["*"],
	"intrinsics.ts": ["*"],
	"intrinsic-damage.ts": ["*"],
	"profile.ts": ["*"],
	fs: ["*"],
	exec: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install"],
	session: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install"],
	ui: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install"],
	capability: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install", "agent-hooks"],
	trust: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install"],
	decisions: ["hooks", "host", "discovery", "bridges", "serve", "cli", "tools", "install"],
	hooks: ["host", "bridges", "serve", "cli", "install", "tools", "trust", "agent-hooks"],
	tools: ["host", "discovery", "bridges", "serve", "cli", "install"],
	discovery: ["host", "serve", "cli", "bridges"],
	"agent-hooks": ["host", "serve", "cli"],
	host: ["bridges", "serve", "cli"],
	bridges: ["serve", "cli", "discovery"],
	agents: ["host", "discovery", "bridges", "serve", "cli", "install", "agent-hooks", "trust", "tools", "session", "ui", "decisions"],
	install: ["host", "bridges", "serve", "cli"],
	serve: ["cli"],
	guards: [
		"host",
		"discovery",
		"bridges",
		"serve",
		"cli",
		"install",
		"agent-hooks",
		"trust",
		"tools",
		"session",
		"ui",
		"decisions",
		"exec",
	],
};

test("lower layers never import the layers that drive them (the README's map, enforced)", () => {
	const problems: string[] = [];
	for (const { file, targets } of imports()) {
		const layer = layerOf(file);
		const forbidden = FORBIDDEN[layer] ?? [];
		for (const target of targets) {
			const to = layerOf(target);
			if (to === layer) continue;
			// The built-ins taken at start-up (and their check) are the lowest leaf: anything may use them.
			if (to === "primordials.ts" || ((to === "intrinsics.ts" || to === "intrinsic-damage.ts") && layer !== "primordials.ts")) continue;
			// The `xcsh-hooks/hooks` surface re-exports discover-and-load; `pi.pi` is the package root, loaded lazily.
			if (file === "hooks/index.ts" && to === "discovery") continue;
			if (to === "index.ts" && (file === "hooks/loader.ts" || file === "hooks/package-root.ts")) continue;
			if (forbidden.includes("*") || forbidden.includes(to)) problems.push(`${file} imports ${target}`);
		}
	}
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

/** Strongly connected groups of files (Tarjan) in the import graph, minus the given edges. */
function cycles(skip: (from: string, to: string) => boolean): string[][] {
	const graph = new Map(imports().map(({ file, targets }) => [file, targets.filter((t) => !skip(file, t))]));
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

test("no import circle runs through discovery, the agents or the bridges", () => {
	// `pi.pi` is the package root, required lazily by the loader when a hook reads it (and named by a type
	// alias): the public surface sits above every layer, so those two edges are not part of the layering.
	const rootEdge = (from: string, to: string) => to === "index.ts" && (from === "hooks/loader.ts" || from === "hooks/package-root.ts");
	const through = cycles(rootEdge).filter((group) =>
		group.some((file) => ["discovery", "agents", "bridges", "agent-hooks"].includes(layerOf(file))),
	);
	expect(through).toEqual([]);
});
