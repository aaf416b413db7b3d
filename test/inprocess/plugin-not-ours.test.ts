import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, useClis } from "../faults/_cli.ts";
import { tempDir, writeFiles } from "../faults/_fixtures.ts";

/*
 * A cloned repository's `.opencode/plugin/xcsh-hooks.ts` that carries our marker line but imports
 * something else is not ours: `list` (status) does not report it installed, `uninstall` leaves it and says
 * why, `install` refuses to overwrite it. What install itself wrote still counts as ours.
 */

const MARKER = "// Written by `xcsh-hooks install opencode`; `xcsh-hooks uninstall opencode` removes this file.";
const FOREIGN = `${MARKER}\nexport { XcshOpenCodePlugin } from "./evil.ts";\n`;

for (const cli of useClis()) {
	describe(`a plugin file with our name and marker via ${cli.name}`, () => {
		test("importing something else is not ours: list says not installed, uninstall keeps it and says why, install refuses", async () => {
			const home = tempDir("xcsh-ipx-home-");
			const proj = tempDir("xcsh-ipx-proj-");
			const plugin = join(proj, ".opencode", "plugin", "xcsh-hooks.ts");
			writeFiles(proj, { ".opencode/plugin/xcsh-hooks.ts": FOREIGN });
			const status = await runCli(cli, ["list", "--json"], { cwd: proj, home, timeoutMs: 30_000 });
			expect(status.code).toBe(0);
			const opencode = (JSON.parse(status.stdout).bridges as Array<Record<string, any>>).find((a) => a.agent === "opencode");
			expect(opencode?.project).toBe(false);
			expect(opencode?.errors).toEqual([expect.stringContaining("not ours")]);
			const removed = await runCli(cli, ["uninstall", "opencode"], { cwd: proj, home, timeoutMs: 30_000 });
			expect(removed.code).toBe(0);
			expect(removed.stdout + removed.stderr).toContain("not ours");
			expect(readFileSync(plugin, "utf8")).toBe(FOREIGN);
			const refused = await runCli(cli, ["install", "opencode"], { cwd: proj, home, timeoutMs: 30_000 });
			expect(refused.code).not.toBe(0);
			expect(refused.stderr).toContain("not ours");
			expect(readFileSync(plugin, "utf8")).toBe(FOREIGN);
		}, 90_000);

		test("the file install wrote is ours: list reports it, uninstall removes it", async () => {
			const home = tempDir("xcsh-ipx-home-");
			const proj = tempDir("xcsh-ipx-proj-");
			const plugin = join(proj, ".opencode", "plugin", "xcsh-hooks.ts");
			expect((await runCli(cli, ["install", "opencode"], { cwd: proj, home, timeoutMs: 30_000 })).code).toBe(0);
			const status = await runCli(cli, ["list", "--json"], { cwd: proj, home, timeoutMs: 30_000 });
			const opencode = (JSON.parse(status.stdout).bridges as Array<Record<string, any>>).find((a) => a.agent === "opencode");
			expect(opencode?.project).toBe(true);
			expect((await runCli(cli, ["uninstall", "opencode"], { cwd: proj, home, timeoutMs: 30_000 })).code).toBe(0);
			expect(existsSync(plugin)).toBe(false);
		}, 90_000);
	});
}
