/**
 * What a newcomer reads first, through the compiled executable and `bun src/cli.ts`: the root help and
 * every command's `--help` fit 80 columns with no summary cut mid-word, and every command that takes
 * `--json` prints what it says — one JSON document, or JSON Lines for `log`.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, runCli, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

const COMMAND_HOOK = `export default (pi) => {
	pi.registerCommand("hello", { description: "say hello", handler: async () => {} });
	pi.on("tool_call", () => undefined);
};\n`;

/** The command names of the root help's "Commands:" section. */
function commandsOf(help: string): string[] {
	const section = help.split("Commands:\n")[1]?.split("\n\n")[0] ?? "";
	return section
		.split("\n")
		.map((line) => /^ {2}(\S+)/.exec(line)?.[1])
		.filter((name): name is string => name !== undefined);
}

/** Lines wider than 80 columns, and summaries cut mid-word ("fa…"; `[arguments…]` and `<path…>` are fine). */
function layoutProblems(label: string, text: string): string[] {
	const problems: string[] = [];
	for (const line of text.split("\n")) {
		if (Bun.stringWidth(line) > 80) problems.push(`${label}: ${Bun.stringWidth(line)} columns: ${line}`);
		if (/[A-Za-z]…(?![\]>])/.test(line)) problems.push(`${label}: cut: ${line}`);
	}
	return problems;
}

/** One invocation per command that takes --json, and how its stdout reads. */
const JSON_RUNS: Record<string, { args: string[]; lines?: true }> = {
	init: { args: ["init", "my-hook", "--json"] },
	list: { args: ["list", "--json"] },
	check: { args: ["check", "--json"] },
	emit: { args: ["emit", "tool_call", "--json", "--data", '{"toolName":"bash","input":{"command":"echo hi"}}'] },
	run: { args: ["run", "bash", "--json", "--input", '{"command":"echo hi"}'] },
	command: { args: ["command", "--json", "--no-discovery", "--hook", "command-hook.ts", "hello"] },
	schema: { args: ["schema", "tool_call", "--json"] },
	trust: { args: ["trust", "--json"] },
	demo: { args: ["demo", "--json"] },
	install: { args: ["install", "claude", "--dry-run", "--json"] },
	uninstall: { args: ["uninstall", "claude", "--dry-run", "--json"] },
	log: { args: ["log", "--json"], lines: true },
	guard: { args: ["guard", "explain", "rm -rf /", "--json"] },
	version: { args: ["version", "--json"] },
	serve: { args: ["serve", "--status", "--json"] },
	completion: { args: ["completion", "zsh", "--json"] },
};

for (const cli of useClis()) {
	describe(cli.name, () => {
		let home = "";
		let cwd = "";
		let rootHelp = "";
		beforeAll(async () => {
			const root = tempDir("xcsh-help-json-");
			home = join(root, "home");
			cwd = join(root, "project");
			mkdirSync(home);
			mkdirSync(cwd);
			writeFileSync(join(cwd, "command-hook.ts"), COMMAND_HOOK);
			rootHelp = (await runCli(cli, ["--help"], { cwd, home, timeoutMs: 30_000 })).stdout;
		}, 60_000);

		const run = (c: Cli, args: string[]) => runCli(c, args, { cwd, home, timeoutMs: 60_000 });

		test("the root help, help, help help and every command's --help fit 80 columns, nothing cut", async () => {
			const names = commandsOf(rootHelp);
			expect(names).toContain("install");
			expect(names).toContain("help");
			const problems = layoutProblems("--help", rootHelp);
			expect((await run(cli, ["help"])).stdout).toBe(rootHelp);
			for (const args of [["help", "help"], ...names.filter((n) => n !== "help").map((n) => [n, "--help"])]) {
				const shown = await run(cli, args);
				expect(shown.code).toBe(0);
				expect(shown.stdout).toStartWith("Usage: xcsh-hooks");
				problems.push(...layoutProblems(args.join(" "), shown.stdout));
			}
			expect(problems).toEqual([]);
		}, 90_000);

		test("every command that takes --json prints JSON (log: JSON Lines) on stdout alone", async () => {
			const names = commandsOf(rootHelp).filter((n) => n !== "help");
			const withJson: string[] = [];
			for (const name of names) if ((await run(cli, [name, "--help"])).stdout.includes("--json")) withJson.push(name);
			expect(withJson.sort()).toEqual(Object.keys(JSON_RUNS).sort());
			for (const [name, { args, lines }] of Object.entries(JSON_RUNS)) {
				const shown = await run(cli, args);
				expect({ name, timedOut: shown.timedOut }).toEqual({ name, timedOut: false });
				const parse = (text: string) => {
					try {
						return JSON.parse(text) as unknown;
					} catch {
						throw new Error(`${args.join(" ")}: stdout is not ${lines ? "JSON Lines" : "JSON"}:\n${shown.stdout}\n${shown.stderr}`);
					}
				};
				if (lines) {
					const parsed = shown.stdout.split("\n").filter(Boolean).map(parse);
					expect(parsed.length).toBeGreaterThan(0); // emit and run above logged their decisions
				} else expect(parse(shown.stdout)).toBeObject();
			}
		}, 90_000);
	});
}
