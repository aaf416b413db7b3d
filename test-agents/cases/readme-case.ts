/**
 * The README, followed as written by a new user (issue 37): a clean clone, the README's own commands
 * for getting `xcsh-hooks` on PATH run in a fresh HOME whose PATH holds only the system folders (Node,
 * npm and Bun; no `~/.local/bin`, no `~/.bun/bin`), then the README's first-hook block (`init guard`,
 * `test`, `emit`, `install claude`) run from a new login shell, which must find `xcsh-hooks` through the
 * line the README added to `~/.profile`; then the real Claude Code deletes nothing: `rm -rf data` is
 * denied with the guard's reason. The commands come from the clone's README.md, so changing them there
 * changes what this case runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Block, blocks, shellScript } from "../../test/docs/_markdown.ts";
import type { AgentDriver } from "../agents/types.ts";
import type { Checks } from "../checks.ts";
import { BUN_CACHE, REPO } from "../paths.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import { drive } from "./drive.ts";
import type { AgentCase } from "./types.ts";

/** A stock machine's PATH: where Node, npm and a Bun installed with `npm install -g bun` live. */
const STOCK_PATH = "/usr/local/bin:/usr/bin:/bin";

/** The README block holding `marker`, with its fence (`console` for the install commands, `sh` for the first hook). */
export function readmeBlock(readme: string, lang: string, marker: string): Block | undefined {
	return blocks("README.md", readme).find((block) => block.lang === lang && block.text.includes(marker));
}

async function runBlock(checks: Checks, sandbox: Sandbox, what: string, block: Block, cwd: string, prelude: string): Promise<boolean> {
	const file = join(sandbox.root, `readme-${block.line}.sh`);
	writeFileSync(file, prelude + shellScript(block));
	// Bun's package cache filled in the setup phase: the case runs without a network, as the rest of the suite.
	const env = sandbox.env({ PATH: STOCK_PATH, BUN_INSTALL_CACHE_DIR: BUN_CACHE });
	const run = await runProcess(["/bin/sh", file], { cwd, env, timeoutMs: 900_000 });
	await Bun.write(join(sandbox.logs, `readme-${block.line}.out`), `${run.stdout}\n--- stderr\n${run.stderr}`);
	return checks.expect(`${what} (README.md line ${block.line})`, run.code === 0, `exit ${run.code}: ${run.stderr.trim().slice(-1500)}`);
}

/** Claude Code guarded by following the README alone, from a clean clone. */
export function readmeCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "the README alone: a clean clone, xcsh-hooks on PATH, init guard + install claude",
		needsBridge: false,
		run(ctx, checks) {
			return drive(driver, ctx, checks, "readme", {
				async prepare(sandbox, c) {
					const clone = join(sandbox.root, "xcsh-hooks");
					const cloned = await runProcess(["git", "clone", "-q", REPO, clone], {
						cwd: sandbox.root,
						env: sandbox.env(),
						timeoutMs: 120_000,
					});
					if (!c.expect("a clean clone of the repository", cloned.code === 0, cloned.stderr.trim())) return false;
					const readme = readFileSync(join(clone, "README.md"), "utf8");
					const install = readmeBlock(readme, "console", "cp dist/xcsh-hooks ~/.local/bin/");
					const first = readmeBlock(readme, "sh", "xcsh-hooks install claude");
					if (!c.expect("the README has its PATH commands and its first-hook block", install !== undefined && first !== undefined))
						return false;
					if (!(install && first)) return false;
					const exe = join(sandbox.home, ".local", "bin", "xcsh-hooks");
					if (!(await runBlock(c, sandbox, "the README's PATH commands ran in the clone, in a fresh HOME", install, clone, "")))
						return false;
					if (!c.expect("`xcsh-hooks` is in ~/.local/bin", existsSync(exe))) return false;
					// The agent is started as from the user's login shell: ~/.local/bin on its PATH (via ~/.profile).
					sandbox.pathFirst = dirname(exe);
					// A new login shell: PATH is the stock one until ~/.profile, as the README left it, is read.
					return runBlock(
						c,
						sandbox,
						"the README's first-hook block ran in the project, xcsh-hooks found through ~/.profile",
						first,
						sandbox.proj,
						'. "$HOME/.profile"\n',
					);
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: {
					deny: "guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]",
					context: "",
				},
				after(c, { sandbox }) {
					const settings = readFileSync(join(sandbox.proj, ".claude", "settings.json"), "utf8");
					// A committed config names the program found on PATH: here the one the README put in ~/.local/bin.
					c.expect(
						"the entries `install claude` wrote name `xcsh-hooks` on PATH, not one machine's path",
						settings.includes("xcsh-hooks xcsh-hooks bridge claude") && !settings.includes(sandbox.home),
						settings.slice(0, 400),
					);
				},
			});
		},
	};
}

/**
 * Setup phase (network): fills Bun's package cache for the README case's `bun install` by running it
 * once in a throwaway clone with a throwaway HOME, so the case itself runs offline like the others.
 */
export async function fillBunCache(log: (line: string) => void): Promise<void> {
	const work = mkdtempSync(join(tmpdir(), "xcsh-agents-bun-cache-"));
	try {
		const env = { PATH: STOCK_PATH, HOME: work, TMPDIR: work, BUN_INSTALL_CACHE_DIR: BUN_CACHE, NO_COLOR: "1" };
		const clone = join(work, "clone");
		const cloned = await runProcess(["git", "clone", "-q", REPO, clone], { cwd: work, env, timeoutMs: 120_000 });
		const installed =
			cloned.code === 0 ? await runProcess(["bun", "install", "--frozen-lockfile"], { cwd: clone, env, timeoutMs: 600_000 }) : cloned;
		log(
			installed.code === 0
				? `bun package cache for the README case: ${BUN_CACHE}`
				: `bun install for the README case failed: ${installed.stderr.trim()}`,
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
