/** The shell guard: one in-process decision, and what the parser adds to the single executable. */
import { statSync } from "node:fs";
import { join } from "pathe";
import { createShellGuard } from "../../src/guards/index.ts";
import { loadShellParser } from "../../src/guards/parser.ts";
import { ROOT, run } from "./binary.ts";
import { tempDir, writeFiles } from "./fixtures.ts";
import type { Report } from "./report.ts";

/** Commands an agent typically sends: a list, a pipe, a wrapper, a quoted message. */
const TYPICAL = [
	"git status && npm test",
	"cd src && grep -rn 'TODO' . | head -20",
	"sudo apt-get install -y jq",
	'git commit -m "fix: stop rm -rf in CI" && git push origin main',
	"rm -rf build dist && bun run build",
];

/** Commands no rule names: the pre-scan clears them without a parse. */
const PLAIN = ["ls -la", "npm test", "cat package.json | head -20", "make build && echo done", "grep -n TODO README.md"];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Size of a compiled program, in bytes. */
async function compiledSize(dir: string, name: string, source: string): Promise<number> {
	writeFiles(dir, { [`${name}.ts`]: source });
	const outfile = join(dir, name);
	await run([process.execPath, "build", "--compile", "--minify", join(dir, `${name}.ts`), "--outfile", outfile], ROOT);
	return statSync(outfile).size;
}

export async function benchGuard(report: Report): Promise<void> {
	await report.section("shell guard", "one decision in-process (parse, unwrap, every default rule), median of rounds");
	const started = performance.now();
	await loadShellParser();
	await report.line("parser load (once per process)", `${(performance.now() - started).toFixed(1)} ms`);
	const guard = createShellGuard({ allowPaths: ["build", "dist"] });
	const cwd = tempDir("xcsh-bench-guard-");
	for (let i = 0; i < 200; i++) await guard.decide(TYPICAL[i % TYPICAL.length] as string, { cwd });
	const rounds: number[] = [];
	for (let round = 0; round < 30; round++) {
		const t = performance.now();
		for (let i = 0; i < 100; i++) await guard.decide(TYPICAL[i % TYPICAL.length] as string, { cwd });
		rounds.push((performance.now() - t) / 100);
	}
	const ms = median(rounds);
	await report.line("decide(), a typical command", `${(ms * 1000).toFixed(1)} µs`);
	report.budget("shell guard: one decision in-process", ms, 0.2, undefined, "ms");
	const plain: number[] = [];
	for (let round = 0; round < 30; round++) {
		const t = performance.now();
		for (let i = 0; i < 100; i++) await guard.decide(PLAIN[i % PLAIN.length] as string, { cwd });
		plain.push((performance.now() - t) / 100);
	}
	await report.line("decide(), a command no rule names (no parse)", `${(median(plain) * 1000).toFixed(1)} µs`);
	// A fresh process whose commands need no parse never pays the parser's load.
	const fresh = await run(
		[
			process.execPath,
			"-e",
			`const { createShellGuard } = await import(${JSON.stringify(join(ROOT, "src", "guards", "index.ts"))});
			const { loadedShellParser } = await import(${JSON.stringify(join(ROOT, "src", "guards", "parser.ts"))});
			const guard = createShellGuard();
			const t = performance.now();
			const d = await guard.decide("ls -la && npm test", { cwd: process.cwd() });
			console.log(JSON.stringify({ ms: performance.now() - t, block: d.block, parser: loadedShellParser() !== undefined }));`,
		],
		cwd,
	);
	const first = JSON.parse(fresh.trim().split("\n").at(-1) ?? "{}");
	await report.line(
		"first decision in a fresh process, no parse needed",
		`${Number(first.ms).toFixed(2)} ms (parser loaded: ${first.parser ? "yes" : "no"})`,
	);

	const dir = tempDir("xcsh-bench-guard-size-");
	const parser = join(ROOT, "src", "guards", "parser.ts");
	const [bare, withParser] = await Promise.all([
		compiledSize(dir, "bare", "console.log(1);\n"),
		compiledSize(dir, "parser", `import { loadShellParser } from ${JSON.stringify(parser)};\nawait loadShellParser();\nconsole.log(1);\n`),
	]);
	await report.line("size the parser adds to the executable", `${((withParser - bare) / 1024 / 1024).toFixed(2)} MB`);
}
