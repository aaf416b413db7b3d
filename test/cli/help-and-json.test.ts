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

/** The command names of the root help's COMMANDS section (citty's, names aligned right). */
function commandsOf(help: string): string[] {
	const section = help.split("COMMANDS\n\n")[1]?.split("\n\n")[0] ?? "";
	return section
		.split("\n")
		.map((line) => /^ {2,}(\S+) {2}/.exec(line)?.[1])
		.filter((name): name is string => name !== undefined);
}

/**
 * Lines wider than 80 columns, summaries cut mid-word ("fa…"; `[arguments…]` and `<path…>` are fine),
 * and ragged prose: a short line whose sentence goes on, unindented, on the next (text wrapped twice).
 */
function layoutProblems(label: string, text: string): string[] {
	const problems: string[] = [];
	const lines = text.split("\n");
	for (const [i, line] of lines.entries()) {
		if (Bun.stringWidth(line) > 80) problems.push(`${label}: ${Bun.stringWidth(line)} columns: ${line}`);
		if (/[A-Za-z]…(?![\]>])/.test(line)) problems.push(`${label}: cut: ${line}`);
		if (/^\S/.test(line) && Bun.stringWidth(line) < 50 && /^[a-z]/.test(lines[i + 1] ?? "")) problems.push(`${label}: ragged: ${line}`);
	}
	return problems;
}

/** One invocation that takes --json: its stdout, and the keys the documented object has. */
interface JsonRun {
	args: string[];
	/** JSON Lines (`log`), not one document. */
	lines?: true;
	/** Top-level keys of the document (of each line for JSON Lines). */
	keys: string[];
	/** Its exit code (default 0; `guard explain` exits 2 on a command it blocks). */
	code?: number;
	/** Values it must have (a dry run writes nothing). */
	has?: Record<string, unknown>;
}

const INSTALL_KEYS = ["agent", "scope", "file", "changes", "written"];
const install = (agent: string, ...more: string[]): JsonRun => ({
	args: ["install", agent, "--dry-run", "--json", ...more],
	keys: INSTALL_KEYS,
	has: { agent, written: false },
});

/**
 * Every command that takes --json, each with at least one case; `trust` has one per action and
 * `install` one per agent its --help lists (a new action or agent without a case fails the test).
 * The runs go in this order (keygen before export before sign).
 */
const JSON_RUNS: Record<string, JsonRun[]> = {
	init: [{ args: ["init", "my-hook", "--json"], keys: ["template", "dir", "files", "next"] }],
	types: [{ args: ["types", "--json"], keys: ["dir", "files", "bytes", "tsconfig"] }],
	list: [{ args: ["list", "--json"], keys: ["hooks", "skipped", "bridges", "warnings"] }],
	check: [{ args: ["check", "--json"], keys: ["ok", "hooks", "loadErrors", "skipped", "warnings"] }],
	emit: [
		{
			args: ["emit", "tool_call", "--json", "--data", '{"toolName":"bash","input":{"command":"echo hi"}}'],
			keys: ["event", "result", "errors", "loadErrors"],
		},
	],
	run: [{ args: ["run", "bash", "--json", "--input", '{"command":"echo hi"}'], keys: ["content", "details", "errors"] }],
	command: [{ args: ["command", "--json", "--no-discovery", "--hook", "command-hook.ts", "hello"], keys: ["command", "args", "errors"] }],
	schema: [{ args: ["schema", "tool_call", "--json"], keys: ["event", "result"] }],
	trust: [
		{ args: ["trust", "--json"], keys: ["trustFile", "hooks", "tests", "approved"] },
		{ args: ["trust", "approve", "--all", "--json"], keys: ["action", "hooks"], has: { action: "approve" } },
		{ args: ["trust", "keygen", "--out", "team.key", "--json"], keys: ["privateKey", "publicKeyFile", "publicKey"] },
		// Without --out the list itself is the JSON on stdout; with --out a summary.
		{ args: ["trust", "export", "--json"], keys: ["version", "kind", "approved"] },
		{ args: ["trust", "export", "--out", "team.json", "--json"], keys: ["list", "approved", "notExported"] },
		{ args: ["trust", "sign", "--key", "team.key", "team.json", "--json"], keys: ["list", "signature"] },
		{ args: ["trust", "revoke", "--all", "--json"], keys: ["action", "hooks"], has: { action: "revoke" } },
	],
	demo: [{ args: ["demo", "--json"], keys: ["blocked", "allowed", "hookErrors"] }],
	install: [
		...["claude", "codex", "gemini", "cursor", "copilot", "qwen", "droid", "auggie", "cline", "opencode", "kilo", "pi", "openclaw"].map(
			(a) => install(a),
		),
		{ ...install("claude", "--managed", "--command", "/usr/bin/env"), has: { agent: "claude", scope: "managed", written: false } },
	],
	uninstall: [{ args: ["uninstall", "claude", "--dry-run", "--json"], keys: INSTALL_KEYS, has: { written: false } }],
	log: [{ args: ["log", "--json"], lines: true, keys: ["time", "agent", "event", "decision"] }],
	guard: [{ args: ["guard", "explain", "rm -rf /", "--json"], keys: ["block", "commands"], has: { block: true }, code: 2 }],
	version: [{ args: ["version", "--json"], keys: ["version", "bun"] }],
	serve: [{ args: ["serve", "--status", "--json"], keys: ["running", "socket"], has: { running: false } }],
	completion: [{ args: ["completion", "zsh", "--json"], keys: ["shell", "script"], has: { shell: "zsh" } }],
};

/** The choices a command's first argument lists in its --help (`approve | revoke | …`), or []. */
function choicesOf(help: string): string[] {
	const section = help.split("ARGUMENTS\n\n")[1]?.split("\n\n")[0] ?? "";
	const text = section.replace(/\s+/g, " ").replace(/\(.*?\)/g, "");
	const list = /:\s*([\w-]+(?:\s*\|\s*[\w-]+)+)/.exec(text)?.[1] ?? /[A-Z]+ ([\w-]+(?: \| [\w-]+)+)/.exec(text)?.[1] ?? "";
	return list
		.split("|")
		.map((w) => w.trim())
		.filter(Boolean);
}

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
			const subs = [["guard", "explain", "--help"]]; // sub-commands' help fits too
			for (const args of [["help", "help"], ...names.filter((n) => n !== "help").map((n) => [n, "--help"]), ...subs]) {
				const shown = await run(cli, args);
				expect(shown.code).toBe(0);
				expect(shown.stdout).toMatch(new RegExp(`^USAGE xcsh-hooks ${args[0]}\\b`, "m"));
				problems.push(...layoutProblems(args.join(" "), shown.stdout));
			}
			expect(problems).toEqual([]);
		}, 90_000);

		test("every command that takes --json prints JSON (log: JSON Lines) on stdout alone, as documented", async () => {
			const names = commandsOf(rootHelp).filter((n) => n !== "help");
			const withJson: string[] = [];
			const helps: Record<string, string> = {};
			for (const name of names) {
				helps[name] = (await run(cli, [name, "--help"])).stdout;
				// A command with sub-commands (`guard explain`): their options are its own.
				for (const sub of commandsOf(helps[name])) helps[name] += (await run(cli, [name, sub, "--help"])).stdout;
				if (helps[name].includes("--json")) withJson.push(name);
			}
			expect(withJson.sort()).toEqual(Object.keys(JSON_RUNS).sort());
			// Each action of trust and each agent of install has its own case.
			for (const name of ["trust", "install"]) {
				const choices = choicesOf(helps[name] ?? "");
				expect(choices.length).toBeGreaterThan(3);
				const covered = new Set((JSON_RUNS[name] ?? []).map((r) => r.args[1]));
				expect({ name, missing: choices.filter((c) => !covered.has(c)) }).toEqual({ name, missing: [] });
			}
			for (const { args, lines, keys, has, code = 0 } of Object.values(JSON_RUNS).flat()) {
				const shown = await run(cli, args);
				expect({ args, timedOut: shown.timedOut, code: shown.code }).toEqual({ args, timedOut: false, code });
				const parse = (text: string) => {
					try {
						return JSON.parse(text) as Record<string, unknown>;
					} catch {
						throw new Error(`${args.join(" ")}: stdout is not ${lines ? "JSON Lines" : "JSON"}:\n${shown.stdout}\n${shown.stderr}`);
					}
				};
				const documents = lines ? shown.stdout.split("\n").filter(Boolean).map(parse) : [parse(shown.stdout)];
				expect(documents.length).toBeGreaterThan(0); // log: emit and run above logged their decisions
				for (const document of documents) {
					expect(document).toBeObject();
					const missing = keys.filter((k) => !(k in document));
					expect({ args, missing }).toEqual({ args, missing: [] });
					if (has) expect(document).toMatchObject(has);
				}
			}
		}, 90_000);
	});
}
