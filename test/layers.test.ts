/**
 * The layering the README's "How the code is laid out" describes, checked on the imports themselves,
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
	discovery: ["host", "serve", "cli"],
	"agent-hooks": ["host", "serve", "cli"],
	host: ["bridges", "serve", "cli"],
	bridges: ["serve", "cli"],
	install: ["host", "bridges", "serve", "cli"],
	serve: ["cli"],
};

test("lower layers never import the layers that drive them (the README's map, enforced)", () => {
	const problems: string[] = [];
	for (const { file, targets } of imports()) {
		const layer = layerOf(file);
		const forbidden = FORBIDDEN[layer] ?? [];
		for (const target of targets) {
			const to = layerOf(target);
			if (to === layer) continue;
			// The `xcsh-hooks/hooks` surface re-exports discover-and-load; `pi.pi` is the package root, loaded lazily.
			if (file === "hooks/index.ts" && to === "discovery") continue;
			if (to === "index.ts" && (file === "hooks/loader.ts" || file === "hooks/package-root.ts")) continue;
			// The default registry defines its built-in "hooks" capability on first use, loading discovery lazily.
			if (file === "capability/registry.ts" && target === "discovery/register.ts") continue;
			if (forbidden.includes("*") || forbidden.includes(to)) problems.push(`${file} imports ${target}`);
		}
	}
	expect(problems).toEqual([]);
});

test("the agents' protocol tables in src/bridges load without the host (discovery reuses them)", () => {
	const tables = [
		"claude.ts",
		"codex.ts",
		"gemini.ts",
		"cursor.ts",
		"copilot.ts",
		"tools.ts",
		"map.ts",
		"fields.ts",
		"_answer.ts",
		"types.ts",
	];
	const problems = imports()
		.filter(({ file }) => tables.some((t) => file === `bridges/${t}`))
		.flatMap(({ file, targets }) =>
			targets.filter((t) => ["host", "serve", "cli"].includes(layerOf(t))).map((t) => `${file} imports ${t}`),
		);
	expect(problems).toEqual([]);
});
