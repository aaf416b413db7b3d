/**
 * Did-you-mean through both CLIs, for the names added since the helper was written as well: commands
 * (`typs`), agents (`opencod`, `kil`, `pii`), trust's team actions (`exprt`, `keygn`), events and shells.
 */
import { describe, expect, test } from "bun:test";
import { runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const CASES: Array<[args: string[], message: string]> = [
	[["instal"], 'unknown command "instal" (did you mean "install"?)'],
	[["typs"], 'unknown command "typs" (did you mean "types"?)'],
	[["help", "complet"], 'unknown command "complet" (did you mean "completion"?)'],
	[["install", "claud"], 'unknown agent "claud" (did you mean "claude"?)'],
	[["install", "opencod"], 'unknown agent "opencod" (did you mean "opencode"?)'],
	[["uninstall", "kil"], 'unknown agent "kil" (did you mean "kilo"?)'],
	[["install", "pii"], 'unknown agent "pii" (did you mean "pi"?)'],
	[["bridge", "pii"], 'unknown agent "pii" (did you mean "pi"?)'],
	[["trust", "exprt"], 'unknown action "exprt" (did you mean "export"?)'],
	[["trust", "keygn"], 'unknown action "keygn" (did you mean "keygen"?)'],
	[["emit", "tool_cal"], 'unknown event type "tool_cal" (did you mean "tool_call"?)'],
	[["completion", "fsh"], 'unknown shell "fsh" (did you mean "zsh" or "fish"?)'],
];

for (const cli of useClis())
	describe(cli.name, () => {
		test("a mistyped command, agent, trust action, event or shell gets the nearest names", async () => {
			const home = tempDir("xcsh-did-you-mean-");
			for (const [args, message] of CASES) {
				const shown = await runCli(cli, args, { cwd: home, home, timeoutMs: 30_000 });
				expect({ args, stderr: shown.stderr.trim(), code: shown.code }).toEqual({
					args,
					stderr: expect.stringContaining(message),
					code: expect.any(Number),
				});
				expect(shown.code).not.toBe(0);
			}
		}, 90_000);
	});
