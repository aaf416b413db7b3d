/**
 * CLI conventions a user notices: help that fits 80 columns and has no escape codes in a pipe,
 * `help <command>`, `--version`, shell completion, flags after `command <name>` belonging to the slash
 * command, and signals ending `run` with 128 + n without leaving the tool's processes behind.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";
import { CLI, runCli } from "./_run.ts";

const PKG = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")) as { version: string };
const COMMANDS = ["init", "list", "check", "emit", "run", "command", "schema", "trust", "demo", "serve", "test", "version", "completion"];
const widest = (text: string) => Math.max(...text.split("\n").map((line) => Bun.stringWidth(line)));

describe("help", () => {
	test("top-level --help lists every command in at most 80 columns, without colour in a pipe", async () => {
		const help = await runCli(["--help"], { env: { NO_COLOR: "" } });
		expect(help.code).toBe(0);
		expect(widest(help.stdout)).toBeLessThanOrEqual(80);
		expect(help.stdout).not.toContain("\x1b[");
		for (const name of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^ +${name} {2}`, "m"));
		expect(help.stdout).toContain("xcsh-hooks help <command>");
	}, 60_000);

	test.each(COMMANDS)(
		"help %s equals %s --help, fits 80 columns and never shows -extension",
		async (name) => {
			const viaHelp = await runCli(["help", name]);
			const viaFlag = await runCli([name, "--help"]);
			expect(viaHelp.code).toBe(0);
			expect(viaHelp.stdout).toBe(viaFlag.stdout);
			expect(viaHelp.stdout).toMatch(new RegExp(`^USAGE xcsh-hooks ${name}\\b`, "m"));
			expect(widest(viaHelp.stdout)).toBeLessThanOrEqual(80);
			expect(viaHelp.stdout).not.toContain("-extension,");
			expect(viaHelp.stdout).not.toMatch(/(^|[\s,])-extension/);
			expect(viaHelp.stdout).not.toContain("\x1b[");
		},
		60_000,
	);

	test("the hook flag is shown as -e, --hook, its description naming --extension", async () => {
		const help = (await runCli(["help", "emit"])).stdout;
		expect(help).toContain("-e, --hook=<path>");
		expect(help.replace(/\s+/g, " ")).toContain("--extension and -e are aliases");
	}, 60_000);

	test("help of an unknown command names it", async () => {
		const run = await runCli(["help", "frobnicate"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain('unknown command "frobnicate"');
	}, 60_000);

	test("colour only on a terminal, and never with NO_COLOR", async () => {
		const script = `const { main } = await import(${JSON.stringify(join(import.meta.dir, "..", "..", "src", "cli", "main.ts"))}); await main(["--help"]);`;
		const screen = async (env: Record<string, string>) => {
			let out = "";
			const proc = Bun.spawn([process.execPath, "-e", script], {
				env: { ...process.env, ...env },
				timeout: 15_000,
				terminal: { cols: 100, rows: 40, data: (_t, data) => void (out += new TextDecoder().decode(data)) },
			});
			await proc.exited;
			proc.terminal?.close();
			return out;
		};
		expect(await screen({ NO_COLOR: "" })).toContain("\x1b[36minit");
		expect(await screen({ NO_COLOR: "1" })).not.toContain("\x1b[");
	}, 60_000);
});

describe("version", () => {
	test("--version and version print the package version and the Bun inside; version --json too", async () => {
		const line = `xcsh-hooks ${PKG.version} (Bun ${Bun.version})`;
		expect((await runCli(["--version"])).stdout.trim()).toBe(line);
		expect((await runCli(["version"])).stdout.trim()).toBe(line);
		expect(JSON.parse((await runCli(["version", "--json"])).stdout)).toEqual({ version: PKG.version, bun: Bun.version });
	}, 60_000);
});

describe("command <name> --help", () => {
	test("flags after the command name go to the slash command; before it they are ours", async () => {
		const dir = tempDir();
		writeFileSync(
			join(dir, "cmd.ts"),
			`export default (pi) => pi.registerCommand("echo", { description: "echo", handler: async (args) => console.error("ARGS=" + args) });\n`,
		);
		const passed = await runCli(["command", "--no-discovery", "--hook", "cmd.ts", "echo", "--help", "-h"], { cwd: dir });
		expect(passed.stderr).toContain("ARGS=--help -h");
		expect(passed.code).toBe(0);
		const ours = await runCli(["command", "--help", "echo"], { cwd: dir });
		expect(ours.stdout).toMatch(/^USAGE xcsh-hooks command\b/m);
	}, 60_000);
});

describe("completion", () => {
	const script = async (shell: string) => {
		const run = await runCli(["completion", shell]);
		expect(run.code).toBe(0);
		return run.stdout;
	};

	test("bash: completes commands, a command's options and enum values", async () => {
		const file = join(tempDir(), "completion.bash");
		writeFileSync(file, await script("bash"));
		const complete = (words: string[]) => {
			const line = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _xcsh_hooks; printf '%s\\n' "\${COMPREPLY[@]}"`;
			const out = Bun.spawnSync(["bash", "-c", line], { env: process.env, stdout: "pipe", stderr: "pipe" });
			expect(out.stderr.toString()).toBe("");
			return out.stdout.toString().trim().split("\n").filter(Boolean);
		};
		expect(complete(["xcsh-hooks", "em"])).toEqual(["emit"]);
		expect(complete(["xcsh-hooks", "--cwd", "x", "ch"])).toEqual(["check"]);
		expect(complete(["xcsh-hooks", "init", "--te"])).toEqual(["--template"]);
		expect(complete(["xcsh-hooks", "init", "--template", "re"])).toEqual(["redact"]);
		expect(complete(["xcsh-hooks", "emit", "--no-d"])).toEqual(["--no-discovery"]);
		expect(complete(["xcsh-hooks", "completion", ""])).toEqual(["bash", "zsh", "fish"]);
	}, 60_000);

	test.each(["zsh", "fish"])(
		"%s: a script that names every command",
		async (shell) => {
			const text = await script(shell);
			for (const name of COMMANDS) expect(text).toContain(name);
			expect(text).toContain(shell === "zsh" ? "compdef _xcsh_hooks xcsh-hooks" : "complete -c xcsh-hooks");
			const checker = Bun.which(shell);
			if (checker) {
				const file = join(tempDir(), `completion.${shell}`);
				writeFileSync(file, text);
				expect(Bun.spawnSync([checker, "-n", file], { env: process.env }).exitCode).toBe(0);
			}
		},
		60_000,
	);

	test("an unknown shell is refused with the choices", async () => {
		const run = await runCli(["completion", "tcsh"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("expected one of: bash, zsh, fish");
	}, 60_000);
});

describe.skipIf(process.platform === "win32")("run bash and signals", () => {
	const MARK = `xcsh-sleep-${process.pid}-${Date.now()}`;

	/** Process ids whose command line contains `mark` (read from /proc: no pattern matching on names). */
	const processesWith = (mark: string): number[] => {
		const out = Bun.spawnSync(["ps", "-eo", "pid=,args="], { env: process.env, stdout: "pipe" }).stdout.toString();
		return out
			.split("\n")
			.filter((l) => l.includes(mark) && !l.includes("ps -eo") && !l.includes("cli.ts"))
			.map((l) => Number.parseInt(l.trim(), 10));
	};

	test.each([
		["SIGINT", 130],
		["SIGTERM", 143],
	] as const)(
		"%s ends `run bash` with %d and stops the command's process group",
		async (signal, code) => {
			const mark = `${MARK}-${signal}`;
			const proc = Bun.spawn(["bun", CLI, "run", "bash", "--no-discovery", "--input", JSON.stringify({ command: `sleep 30; : ${mark}` })], {
				cwd: tempDir(),
				stdout: "pipe",
				stderr: "pipe",
				env: { ...process.env, NO_COLOR: "1" },
				timeout: 20_000,
			});
			for (let i = 0; i < 100 && processesWith(mark).length === 0; i++) await Bun.sleep(50);
			expect(processesWith(mark).length).toBeGreaterThan(0);
			proc.kill(signal);
			expect(await proc.exited).toBe(code);
			expect(await new Response(proc.stderr).text()).toContain("interrupted");
			let left = processesWith(mark);
			for (let i = 0; i < 40 && left.length > 0; i++) {
				await Bun.sleep(50);
				left = processesWith(mark);
			}
			for (const pid of left) process.kill(pid, "SIGKILL"); // never leave them behind, even when failing
			expect(left).toEqual([]);
		},
		60_000,
	);
});
