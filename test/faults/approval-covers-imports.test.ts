/**
 * An approval covers every project file that runs (docs/contract.md#trust): a module hook's import graph, and
 * for a shell hook or an agent config entry the scripts and the files beside them in their folder. A
 * change to any of them after approval fails closed with the exact approve command — never "the edited
 * policy silently runs" — and an import the approval never saw (a file that now wins the resolution, a
 * path computed at run time) is refused without running.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { approvalProject } from "./_approval-project.ts";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectBlockedEmit, expectCleanFailure } from "./_expect.ts";
import { marker, touch, writeFiles } from "./_fixtures.ts";

/** A policy module: commands containing one of `banned` are blocked with `reason`. */
const policy = (banned: string[], reason: string) =>
	`export const banned = ${JSON.stringify(banned)};\nexport const reason = ${JSON.stringify(reason)};\n`;

const GUARD = `import { banned, reason } from "../../lib/policy";
export default (pi) => pi.on("tool_call", (e) => (banned.some((b) => String(e.input.command).includes(b)) ? { block: true, reason } : undefined));
`;

function cells(cli: Cli): void {
	test.concurrent(
		"a guard's imported policy loosened after approval fails closed naming the approve command; approved again, it runs",
		async () => {
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": GUARD, "lib/policy.ts": policy(["rm"], "policy v1: no rm") });
			const approved = await p.approve(".xcsh/hooks/guard.ts");
			expect(approved.stdout).toContain("lib/policy.ts"); // the user is told what the approval covers
			expectBlockedEmit(await p.emit("rm -rf build"), "policy v1: no rm");

			writeFileSync(p.path("lib/policy.ts"), policy([], "policy v2: anything goes"));
			const edited = await p.emit("rm -rf build");
			const reason = expectBlockedEmit(edited, "fails closed").result.reason as string;
			expect(reason).toContain(p.path("lib/policy.ts"));
			expect(reason).toContain(`xcsh-hooks trust approve ${p.path(".xcsh/hooks/guard.ts")}`);
			expectCleanFailure(await runCli(cli, ["check"], { cwd: p.dir, home: p.home }), 1);

			await p.approve(".xcsh/hooks/guard.ts");
			expect((await p.emit("rm -rf build")).code).toBe(0);
		},
		CELL_TIMEOUT_MS,
	);

	// Bun applies a project's tsconfig `paths` when run from source; the executable reads no tsconfig (the import fails there).
	test.concurrent.skipIf(cli.name !== "bun src/cli.ts")(
		"a policy imported through a tsconfig path alias is covered too",
		async () => {
			const guard = GUARD.replace("../../lib/policy", "@/lib/policy");
			const tsconfig = JSON.stringify({ compilerOptions: { paths: { "@/*": ["./*"] } } });
			const p = approvalProject(cli, {
				"tsconfig.json": tsconfig,
				".xcsh/hooks/guard.ts": guard,
				"lib/policy.ts": policy(["rm"], "policy v1: no rm"),
			});
			expect((await p.approve(".xcsh/hooks/guard.ts")).stdout).toContain("lib/policy.ts");
			expectBlockedEmit(await p.emit("rm -rf build"), "policy v1: no rm");
			writeFileSync(p.path("lib/policy.ts"), policy([], "policy v2: anything goes"));
			const run = await p.emit("rm -rf build");
			expect(expectBlockedEmit(run, "fails closed").result.reason).toContain(p.path("lib/policy.ts"));
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a file added after approval that now wins the import's resolution never runs: the import is refused",
		async () => {
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": GUARD, "lib/policy.ts": policy(["rm"], "policy v1: no rm") });
			await p.approve(".xcsh/hooks/guard.ts");
			const ran = marker(p.dir, "TSX-RAN");
			// `./lib/policy` resolves to policy.tsx before policy.ts once it exists.
			writeFiles(p.dir, { "lib/policy.tsx": `${touch(ran.path)}\n${policy([], "swapped in")}` });
			const run = await p.emit("rm -rf build");
			expect(expectBlockedEmit(run, "fails closed").result.reason).toContain(`xcsh-hooks trust approve ${p.path(".xcsh/hooks/guard.ts")}`);
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a project file a guard imports by a computed path at call time is refused and never runs",
		async () => {
			const guard = `export default (pi) => pi.on("tool_call", async (e) => {
	const name = String(e.input.command).split(" ")[1];
	const plugin = await import(\`\${import.meta.dir}/plugins/\${name}.ts\`);
	return plugin.verdict(e);
});
`;
			const p = approvalProject(cli, { ".xcsh/hooks/guard.ts": guard });
			await p.approve(".xcsh/hooks/guard.ts");
			const ran = marker(p.dir, "PLUGIN-RAN");
			writeFiles(p.dir, { ".xcsh/hooks/plugins/evil.ts": `${touch(ran.path)}\nexport const verdict = () => undefined;\n` });
			const run = await p.emit("load evil");
			expect(expectBlockedEmit(run, "does not cover").result.reason).toContain(
				`xcsh-hooks trust approve ${p.path(".xcsh/hooks/guard.ts")}`,
			);
			expect(ran.exists()).toBe(false);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a shell hook's sourced file beside it, edited after approval, fails the call closed",
		async () => {
			const script = `#!/bin/sh\n. "$XCSH_PROJECT_DIR/.xcsh/hooks/pre/.policy.sh"\ncheck "$(cat)"\n`;
			const lib = (body: string) => `check() {\n${body}\n}\n`;
			const p = approvalProject(cli, {
				".xcsh/hooks/pre/bash.sh": script,
				".xcsh/hooks/pre/.policy.sh": lib(`case "$1" in *rm*) echo "lib v1: no rm" >&2; exit 2;; esac`),
			});
			await p.approve(".xcsh/hooks/pre/bash.sh");
			expectBlockedEmit(await p.emit("rm -rf build"), "lib v1: no rm");

			writeFileSync(p.path(".xcsh/hooks/pre/.policy.sh"), lib("return 0"));
			const run = await p.emit("rm -rf build");
			const reason = expectBlockedEmit(run, "fails closed").result.reason as string;
			expect(reason).toContain(`xcsh-hooks trust approve ${p.path(".xcsh/hooks/pre/bash.sh")}`);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"an agent entry `sh ./x.sh` whose x.sh sources ./lib.sh: lib.sh edited after approval fails closed",
		async () => {
			const settings = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "sh ./x.sh" }] }] } };
			const lib = (body: string) => `check() {\n${body}\n}\n`;
			const p = approvalProject(cli, {
				".claude/settings.json": JSON.stringify(settings),
				"x.sh": `. ./lib.sh\ncheck "$(cat)"\n`,
				"lib.sh": lib(`case "$1" in *rm*) echo "lib v1: no rm" >&2; exit 2;; esac`),
			});
			await p.approve(".claude/settings.json");
			expectBlockedEmit(await p.emit("rm -rf build"), "lib v1: no rm");

			writeFileSync(p.path("lib.sh"), lib("return 0"));
			const run = await p.emit("rm -rf build");
			const reason = expectBlockedEmit(run, "fails closed").result.reason as string;
			expect(reason).toContain(`xcsh-hooks trust approve ${p.path(".claude/settings.json")}`);

			await p.approve(".claude/settings.json");
			expect((await p.emit("rm -rf build")).code).toBe(0);
		},
		CELL_TIMEOUT_MS,
	);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
