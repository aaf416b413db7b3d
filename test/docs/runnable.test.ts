/**
 * Every runnable command in the docs runs (issue 37: the docs cannot drift). A fenced block marked
 * ```sh in README.md or docs/ is runnable: this test runs it, as written, with `sh -e` in a fresh
 * project folder and a fresh HOME, `xcsh-hooks` on PATH (`bun src/cli.ts` of this checkout). A page's
 * blocks run in order in one folder, as a reader following the page would. A line whose comment says
 * `# exit N` must exit N; every other line must succeed. Blocks that need the network, root or a real
 * agent are fenced ```console or ```text, and are not run.
 */
import { afterAll, expect, test } from "bun:test";
import { chmodSync, cpSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runArgv } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";
import { blocks, docsPages, ROOT, shellScript } from "./_markdown.ts";

const PAGES = ["README.md", ...docsPages()];
const RUNNABLE = PAGES.map((page) => ({ page, blocks: blocks(page).filter((b) => b.lang === "sh") })).filter((p) => p.blocks.length > 0);
const BLOCK_TIMEOUT_MS = 240_000;

/** What a runnable block may not do: these belong in ```console blocks. */
const NOT_RUNNABLE = [
	{ pattern: /(^|[;&|(]\s*)sudo\s/m, why: "needs root" },
	{ pattern: /(^|[;&|(]\s*)(curl|wget|bun (add|install)|npm (install|i)|git clone)\s/m, why: "needs the network" },
	{ pattern: /xcsh-hooks\s+run\s+bash\b/, why: "runs a shell command for real" },
	{ pattern: /xcsh-hooks\s+serve\b(?!\s+--status)/, why: "starts a server that keeps running" },
	{
		pattern: /(^|[;&|(]\s*)(claude|codex|gemini|cursor|opencode|kilo|qwen|droid|cline|copilot|auggie|openclaw|pi)(\s|$)/m,
		why: "runs a real agent",
	},
];

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** A folder with `xcsh-hooks` in it: this checkout's CLI, started as the package's bin starts it. */
function binFolder(): string {
	const bin = tempDir("xcsh-docs-bin-");
	made.push(bin);
	const exe = join(bin, "xcsh-hooks");
	writeFileSync(exe, `#!/bin/sh\nexec "${process.execPath}" --no-env-file --config=/dev/null "${join(ROOT, "src", "cli.ts")}" "$@"\n`);
	chmodSync(exe, 0o755);
	return bin;
}

test("runnable blocks are runnable: no root, no network, no real agent, no server left running", () => {
	const refused: string[] = [];
	for (const { blocks: list } of RUNNABLE)
		for (const block of list)
			for (const rule of NOT_RUNNABLE)
				if (rule.pattern.test(block.text)) refused.push(`${block.page}:${block.line} ${rule.why}: fence it as console`);
	expect(refused).toEqual([]);
});

test("the docs have runnable blocks (README, getting started, composing, trust…)", () => {
	const pages = RUNNABLE.map((p) => p.page);
	for (const page of ["README.md", "docs/getting-started.md", "docs/composing.md", "docs/sources-and-trust.md"])
		expect(pages).toContain(page);
});

const BIN = binFolder();

for (const { page, blocks: list } of RUNNABLE) {
	test(
		`${page}: its ${list.length} shell block(s) run as written`,
		async () => {
			const home = tempDir("xcsh-docs-home-");
			const project = tempDir("xcsh-docs-project-");
			made.push(home, project);
			cpSync(join(ROOT, "examples"), join(project, "examples"), { recursive: true });
			const env = { PATH: `${BIN}:${dirname(process.execPath)}:/usr/bin:/bin`, XCSH_HOOKS_SERVER: "off" };
			for (const block of list) {
				const file = join(home, ".docs-block.sh");
				writeFileSync(file, shellScript(block));
				const run = await runArgv(["/bin/sh", file], { cwd: project, home, env, timeoutMs: BLOCK_TIMEOUT_MS });
				rmSync(file);
				expect({
					block: `${page}:${block.line}`,
					code: run.code,
					stderr: run.code === 0 ? "" : run.stderr,
					stdout: run.code === 0 ? "" : run.stdout,
				}).toEqual({
					block: `${page}:${block.line}`,
					code: 0,
					stderr: "",
					stdout: "",
				});
			}
			const status = await runArgv([join(BIN, "xcsh-hooks"), "serve", "--status", "--json"], {
				cwd: project,
				home,
				env,
				timeoutMs: 60_000,
			});
			const server = JSON.parse(status.stdout || "{}") as { running?: boolean; pid?: number };
			if (server.running && server.pid) process.kill(server.pid, "SIGTERM");
			expect(server.running ?? false).toBe(false);
		},
		BLOCK_TIMEOUT_MS * list.length + 60_000,
	);
}
