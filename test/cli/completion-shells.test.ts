/**
 * The completion scripts run in their own shells: bash, zsh and fish load the script the compiled
 * executable prints and complete commands, agents, events, tools, templates and flags. A shell that
 * is not installed skips its test with a message saying how to get it (CI installs them: .ci/run).
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { executablePath, minimalEnv, runArgv, useClis } from "../faults/_cli.ts";
import { tempDir } from "../faults/_fixtures.ts";

useClis(); // builds the executable: the script comes from the program a user installs

const missing = (shell: string) => {
	const found = Bun.which(shell);
	if (!found) console.warn(`skipped: ${shell} is not installed (apt-get install -y ${shell}); its completion script is not checked`);
	return !found;
};

/** The script `xcsh-hooks completion <shell>` prints, in a file, and a HOME for the shell. */
async function script(shell: string): Promise<{ file: string; home: string }> {
	const home = tempDir("xcsh-completion-");
	const run = await runArgv([executablePath(), "completion", shell], { cwd: home, home, timeoutMs: 30_000 });
	expect(run.code).toBe(0);
	const file = join(home, `xcsh-hooks.${shell}`);
	writeFileSync(file, run.stdout);
	return { file, home };
}

function shellRun(argv: string[], home: string): string {
	const out = Bun.spawnSync(argv, { cwd: home, env: minimalEnv(home), stdout: "pipe", stderr: "pipe", timeout: 30_000 });
	expect({ code: out.exitCode, stderr: out.stderr.toString() }).toEqual({ code: 0, stderr: "" });
	return out.stdout.toString();
}

describe("completion in the shells themselves", () => {
	test.skipIf(missing("bash"))(
		"bash: agents, events, tools, templates, log --agent, help's commands",
		async () => {
			const { file, home } = await script("bash");
			const complete = (line: string) =>
				shellRun(
					[
						"bash",
						"-c",
						`source ${file}; COMP_WORDS=(xcsh-hooks ${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _xcsh_hooks; echo "\${COMPREPLY[*]}"`,
					],
					home,
				).trim();
			expect(complete("install cla")).toBe("claude");
			expect(complete("emit tool_c")).toBe("tool_call");
			expect(complete("run ed")).toBe("edit");
			expect(complete("init --template red")).toBe("redact");
			expect(complete("log --agent ge")).toBe("gemini");
			expect(complete("log --dec")).toBe("--decision");
			expect(complete("help uni")).toBe("uninstall");
			// What came later: the in-process agents and pi, trust's team actions, types, managed installs.
			expect(complete("install openco")).toBe("opencode");
			expect(complete("install opencl")).toBe("openclaw");
			expect(complete("install ki")).toBe("kilo");
			expect(complete("uninstall p")).toBe("pi");
			expect(complete("bridge p")).toBe("pi");
			expect(complete("log --agent p")).toBe("pi");
			expect(complete("trust ex")).toBe("export");
			expect(complete("trust k")).toBe("keygen");
			expect(complete("trust --k")).toBe("--key");
			expect(complete("typ")).toBe("types");
			expect(complete("types --u")).toBe("--user");
			expect(complete("install --man")).toBe("--managed");
			expect(complete("install --only")).toBe("--only-managed");
			expect(complete("serve --sta")).toBe("--status");
			expect(complete("serve --j")).toBe("--json");
		},
		60_000,
	);

	test.skipIf(missing("zsh"))(
		"zsh: the script parses, registers with compdef, and offers commands, agents and events",
		async () => {
			const { file, home } = await script("zsh");
			shellRun(["zsh", "-n", file], home);
			// compinit without a dump file; _describe and _arguments replaced to print what they are given.
			const offered = (words: string[]) =>
				shellRun(
					[
						"zsh",
						"-f",
						"-c",
						`autoload -U compinit; compinit -u -D; source ${file}; print -r -- "comp=$_comps[xcsh-hooks]";
_describe() { print -rl -- \${(P)2} }; _arguments() { print -rl -- "$@" }
words=(xcsh-hooks ${words.map((w) => `'${w}'`).join(" ")}); CURRENT=$#words; _xcsh_hooks`,
					],
					home,
				);
			const top = offered([""]);
			expect(top).toContain("comp=_xcsh_hooks");
			expect(top).toContain("install:Add the bridge to an agent's hook config");
			expect(offered(["install", ""])).toContain("1:argument:(claude codex gemini");
			expect(offered(["emit", ""])).toMatch(/1:argument:\(.*\btool_call\b/);
			expect(offered(["init", ""])).toContain("--template[Template");
			expect(top).toContain("types:Write type declarations for editors and tsc");
			expect(offered(["install", ""])).toMatch(/1:argument:\(.*\bopencode kilo pi openclaw\)/);
			expect(offered(["trust", ""])).toContain("1:argument:(approve revoke export sign keygen)");
			expect(offered(["install", ""])).toContain("--managed[");
			expect(offered(["serve", ""])).toContain("--status[");
		},
		60_000,
	);

	test.skipIf(missing("fish"))(
		"fish: the script parses and completes commands, agents, events, tools and templates",
		async () => {
			const { file, home } = await script("fish");
			shellRun(["fish", "--no-config", "-n", file], home);
			const complete = (line: string) =>
				shellRun(["fish", "--no-config", "-c", `source ${file}; complete -C '${line}'`], home)
					.split("\n")
					.filter(Boolean)
					.map((l) => l.split("\t")[0]);
			expect(complete("xcsh-hooks insta")).toEqual(["install"]);
			expect(complete("xcsh-hooks install cla")).toEqual(["claude"]);
			expect(complete("xcsh-hooks emit tool_ca")).toEqual(["tool_call"]);
			expect(complete("xcsh-hooks run ba")).toEqual(["bash"]);
			expect(complete("xcsh-hooks init --template gu")).toEqual(["guard"]);
			expect(complete("xcsh-hooks log --dec")).toEqual(["--decision"]);
			expect(complete("xcsh-hooks typ")).toEqual(["types"]);
			expect(complete("xcsh-hooks install ki")).toEqual(["kilo"]);
			expect(complete("xcsh-hooks install op")).toEqual(["openclaw", "opencode"]);
			expect(complete("xcsh-hooks trust ke")).toEqual(["keygen"]);
			expect(complete("xcsh-hooks install --only")).toEqual(["--only-managed"]);
			expect(complete("xcsh-hooks serve --stat")).toEqual(["--status"]);
		},
		60_000,
	);
});
