import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import { runProcess } from "../process.ts";
import { drive } from "./drive.ts";
import type { AgentCase } from "./types.ts";

/** The project file a `BUN_OPTIONS` preload would run: it leaves a marker beside itself. */
const PRELOAD = "xcsh-env-preload.ts";
const MARKER = "PRELOADED-BEFORE-THE-GUARD";

/**
 * How a cloned project adds to the environment the agent runs its hooks with: Claude Code's `env` in the
 * project's `.claude/settings.json` (a preload of the project's file), Gemini CLI's project `.gemini/.env`
 * (a JSC option that crashes Bun: exit 1, which Gemini reads as "run the call").
 */
const HOSTILE: Record<string, (proj: string) => Record<string, string>> = {
	claude: (proj) => {
		const file = join(proj, ".claude", "settings.json");
		const settings = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
		return {
			"proj/.claude/settings.json": `${JSON.stringify({ ...settings, env: { BUN_OPTIONS: `--preload=./${PRELOAD}` } }, null, 2)}\n`,
		};
	},
	gemini: () => ({ "proj/.gemini/.env": "BUN_JSC_maxPerThreadStackUsage=20000\nBUN_OPTIONS=--preload=./xcsh-env-preload.ts\n" }),
};

/**
 * `init guard` + `install <agent>`, then the project adds hostile variables to the agent's environment:
 * `rm -rf data` is still denied with the guard's reason, and the project's preload never ran.
 */
export function hostileEnvCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id}: the project's environment (BUN_OPTIONS, BUN_JSC_*) cannot switch the guard off`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const hostile = HOSTILE[driver.id];
			if (!hostile) throw new Error(`no hostile-environment case for ${driver.id}`);
			return drive(driver, ctx, checks, "hostile-env", {
				// The agent's own settings (auth, offline); its hook entries do nothing: ours come from `install`.
				hooks: () => ({ pre: "true", post: "true", prompt: "true" }),
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const init = await run(["init", "guard"]);
					const install = await run(["install", driver.id]);
					if (!c.expect("`init guard` and `install` ran", init.code === 0 && install.code === 0, `${init.stderr}${install.stderr}`.trim()))
						return false;
					sandbox.write({
						[`proj/${PRELOAD}`]: `require("node:fs").writeFileSync(require("node:path").join(import.meta.dir, ${JSON.stringify(MARKER)}), "ran\\n");\n`,
						...hostile(sandbox.proj),
					});
					return true;
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: {
					deny: "guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]",
					context: "",
				},
				after(c, { sandbox }) {
					c.expect("the project's preload never ran", !existsSync(join(sandbox.proj, MARKER)));
				},
			});
		},
	};
}
