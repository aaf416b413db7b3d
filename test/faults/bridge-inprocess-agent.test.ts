/**
 * `bridge opencode` (or kilo): those agents run our runner in their own process and have no hook command.
 * The call says so and exits 1, and it starts no hook server (the auto-start is for bridged agents).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { minimalEnv, runCli, useClis } from "./_cli.ts";
import { tempDir } from "./_fixtures.ts";

const clis = useClis();

for (const cli of clis)
	describe(cli.name, () => {
		test("bridge of an in-process agent: a clear error, and no server started", async () => {
			const root = tempDir("xcsh-bridge-inproc-");
			const home = join(root, "home");
			mkdirSync(home);
			for (const agent of ["opencode", "kilo"]) {
				const run = await runCli(cli, ["bridge", agent], {
					cwd: root,
					home,
					stdin: "{}",
					env: minimalEnv(home, { XCSH_HOOKS_SERVER: "on" }),
					timeoutMs: 30_000,
				});
				expect(run.code).toBe(1);
				expect(run.stderr).toContain(`xcsh-hooks install ${agent}`);
				expect(existsSync(join(home, ".xcsh", "agent", "server.log"))).toBe(false);
				expect(existsSync(join(home, ".xcsh", "agent", "bridge.sock"))).toBe(false);
			}
		}, 60_000);
	});
