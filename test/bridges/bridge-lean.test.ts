/**
 * A plain `bridge <agent>` call (the command line `install` writes) that no server answers runs
 * without the CLI's parser and command table (src/cli/bridge-call.ts), and answers exactly as the
 * full CLI does; every other bridge command line still goes through the CLI.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "pathe";
import { tempDir } from "../_helpers.ts";
import { CLI_SOURCE, minimalEnv, runArgv, runCli, useClis } from "../faults/_cli.ts";
import { fixture } from "./_bridge.ts";

const clis = useClis();

/** A user hook that denies every tool call, naming the CLI modules loaded in its process (source runs only). */
const PROBE = `export default function (pi) {
	pi.on("tool_call", async () => {
		const loaded = Object.keys(require.cache).filter((k) => k.includes("/src/cli/")).map((k) => k.split("/src/cli/")[1]);
		return { block: true, reason: "probe: " + (loaded.sort().join(",") || "none") };
	});
}
`;

function setup(): { home: string; project: string; payload: string } {
	const root = tempDir("xcsh-bridge-lean-");
	const home = join(root, "home");
	const project = join(root, "project");
	mkdirSync(join(home, ".xcsh", "agent", "hooks"), { recursive: true });
	mkdirSync(project);
	writeFileSync(join(home, ".xcsh", "agent", "hooks", "probe.ts"), PROBE);
	return { home, project, payload: JSON.stringify(fixture("claude", "PreToolUse.Bash.json", project)) };
}

const reasonOf = (stdout: string): string =>
	(JSON.parse(stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;

describe("a plain bridge call", () => {
	test("loads no CLI module but the bridge call's own (bun src/cli.ts)", async () => {
		const { home, project, payload } = setup();
		for (const extra of [[], ["--installed-by=xcsh-hooks"], ["--event", "PreToolUse", "--timeout", "20", "--allow-load-errors"]]) {
			const run = await runArgv([process.execPath, CLI_SOURCE, "bridge", "claude", ...extra], {
				cwd: project,
				home,
				stdin: payload,
				env: minimalEnv(home),
			});
			expect(run.code).toBe(0);
			expect(reasonOf(run.stdout)).toStartWith("probe: _shared.ts,bridge-call.ts ");
		}
	}, 60_000);

	test("any other bridge command line goes through the CLI, with the same answer", async () => {
		const { home, project, payload } = setup();
		const run = await runArgv([process.execPath, CLI_SOURCE, "bridge", "claude", "--cwd", project], {
			cwd: project,
			home,
			stdin: payload,
			env: minimalEnv(home),
		});
		expect(run.code).toBe(0);
		expect(reasonOf(run.stdout)).toContain("main.ts");
	}, 60_000);

	for (const cli of clis) {
		test(`${cli.name}: answers as before; a bad command line is still the CLI's error`, async () => {
			const { home, project, payload } = setup();
			const plain = await runCli(cli, ["bridge", "claude"], { cwd: project, home, stdin: payload });
			expect(plain.code).toBe(0);
			expect(reasonOf(plain.stdout)).toStartWith("probe: ");
			const unknown = await runCli(cli, ["bridge", "nosuch"], { cwd: project, home, stdin: payload });
			expect(unknown.code).toBe(1);
			expect(unknown.stderr).toContain('xcsh-hooks bridge: unknown agent "nosuch"');
			const badTimeout = await runCli(cli, ["bridge", "claude", "--timeout", "0"], { cwd: project, home, stdin: payload });
			expect(badTimeout.code).toBe(1);
			expect(badTimeout.stderr).toContain("--timeout 0: expected a positive number of seconds");
			const help = await runCli(cli, ["bridge", "claude", "--help"], { cwd: project, home });
			expect(help.code).toBe(0);
			expect(help.stdout).toContain("--allow-load-errors");
		}, 90_000);
	}
});
