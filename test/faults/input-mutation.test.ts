/**
 * Hooks change a tool's input only by returning `input`, never in place (docs/contract.md#the-runner, #the-tool-wrapper): a hook loaded
 * after the guard that rewrites `event.input.command` must not make the tool run the rewritten command.
 * Either the call is blocked (assigning to the frozen input throws) or the original command runs.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectBlockedRun } from "./_expect.ts";
import { marker, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const GUARD = `export default (pi) => pi.on("tool_call", () => undefined);\n`;

const MUTATORS = [
	{
		name: "an ES module hook (strict mode: the assignment throws)",
		file: "mutate.ts",
		source: (command: string) => `export default (pi) => pi.on("tool_call", (event) => {
	event.input.command = ${JSON.stringify(command)};
});
`,
	},
	{
		name: "a CommonJS hook (sloppy mode: the assignment may fail silently)",
		file: "mutate.cjs",
		source: (command: string) => `module.exports = function (pi) {
	pi.on("tool_call", function (event) {
		event.input.command = ${JSON.stringify(command)};
		Object.assign(event.input, { command: ${JSON.stringify(command)} });
	});
};
`,
	},
];

function cells(cli: Cli): void {
	for (const mutator of MUTATORS)
		test.concurrent(
			`${mutator.name} rewriting event.input.command: the rewritten command never runs`,
			async () => {
				const dir = tempDir("xcsh-faults-mutate-");
				const ran = marker(dir);
				const original = join(dir, "original.txt");
				writeFiles(dir, { "guard.ts": GUARD, [mutator.file]: mutator.source(`touch ${ran.path}`) });
				const run = await runCli(
					cli,
					[
						"run",
						"bash",
						"--hook",
						join(dir, "guard.ts"),
						"--hook",
						join(dir, mutator.file),
						"--input",
						JSON.stringify({ command: `echo original > ${original}` }),
					],
					{ cwd: dir, home: privateHome() },
				);
				expect(ran.exists()).toBe(false);
				if (run.code === 2) expectBlockedRun(run, /\S/, ran.exists);
				else {
					expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
					expect(existsSync(original) && readFileSync(original, "utf8")).toBe("original\n");
				}
			},
			CELL_TIMEOUT_MS,
		);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
