/**
 * Project hooks run only as approved (docs/contract.md#trust): an approved hook that changed fails closed
 * with the exact `trust approve` command, `check` refuses to pass while a hook awaits approval,
 * `list` shows what will run, and what runs is exactly the approved bytes, even while the file is
 * being swapped under the CLI.
 */
import { describe, expect, test } from "bun:test";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "./_cli.ts";
import { expectBlockedEmit, expectCleanFailure } from "./_expect.ts";
import { bashCall, marker, privateHome, tempDir, touch, writeFiles } from "./_fixtures.ts";

const ALLOW = `export default (pi) => pi.on("tool_call", () => undefined);\n`;
const USER_GUARD = guardSource("user guard");

function guardSource(reason: string): string {
	return `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("touch") ? { block: true, reason: ${JSON.stringify(reason)} } : undefined));\n`;
}

/** A project with `.xcsh/hooks/guard.ts`, its own HOME; `approve()` approves the hook through the CLI. */
function project(cli: Cli, source = ALLOW) {
	const dir = tempDir("xcsh-faults-approval-");
	const home = privateHome();
	writeFiles(dir, { ".xcsh/hooks/guard.ts": source });
	const hook = join(dir, ".xcsh", "hooks", "guard.ts");
	const approve = async () => {
		const run = await runCli(cli, ["trust", "approve", hook], { cwd: dir, home });
		if (run.code !== 0) throw new Error(`trust approve failed (${run.code}): ${run.stderr}`);
	};
	return { dir, home, hook, approve };
}

function cells(cli: Cli): void {
	test.concurrent(
		"an approved project hook edited afterwards blocks tool_call (exit 2) and prints the exact trust approve command",
		async () => {
			const p = project(cli);
			await p.approve();
			writeFileSync(p.hook, `${ALLOW}// edited after approval\n`);
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("ls") });
			expectBlockedEmit(run, /\S/);
			expect(run.stderr).toContain(`xcsh-hooks trust approve ${p.hook}`);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"check exits 1 while a fresh project hook awaits approval, naming the approve command",
		async () => {
			const p = project(cli);
			const run = await runCli(cli, ["check"], { cwd: p.dir, home: p.home });
			expectCleanFailure(run, 1);
			expect(run.stdout + run.stderr).toContain(`xcsh-hooks trust approve ${p.hook}`);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"check exits 1 when an approved project hook changed since",
		async () => {
			const p = project(cli);
			await p.approve();
			const before = await runCli(cli, ["check"], { cwd: p.dir, home: p.home });
			expect(before.code).toBe(0);
			writeFileSync(p.hook, `${ALLOW}// edited after approval\n`);
			const run = await runCli(cli, ["check"], { cwd: p.dir, home: p.home });
			expectCleanFailure(run, 1);
			expect(run.stdout + run.stderr).toContain(`xcsh-hooks trust approve ${p.hook}`);
		},
		CELL_TIMEOUT_MS,
	);

	describe("list shows a running user hook as it is", () => {
		/** The user guard at `~/.xcsh/agent/hooks/guard.ts` in `home`: its row in `list`, and proof that it runs. */
		async function userGuard(dir: string, home: string) {
			const path = "~/.xcsh/agent/hooks/guard.ts"; // list shows home paths as ~/…
			const list = await runCli(cli, ["list"], { cwd: dir, home });
			expect(list.code).toBe(0);
			const row = list.stdout.split("\n").find((line) => line.includes(path));
			const emit = await runCli(cli, ["emit", "tool_call"], { cwd: dir, home, stdin: bashCall("touch x") });
			return { row, emit, stdout: list.stdout };
		}

		test.concurrent(
			"not shadowed by an unapproved project hook with the same key",
			async () => {
				const p = project(cli, guardSource("project guard"));
				writeFiles(p.home, { ".xcsh/agent/hooks/guard.ts": USER_GUARD });
				const { row, emit, stdout } = await userGuard(p.dir, p.home);
				expectBlockedEmit(emit, "user guard"); // it runs
				if (!row) throw new Error(`list does not show the user hook:\n${stdout}`);
				expect(row).not.toMatch(/shadowed|disabled/);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"not disabled by the project's settings (disabledExtensions)",
			async () => {
				const dir = tempDir("xcsh-faults-approval-");
				const home = privateHome();
				writeFiles(home, { ".xcsh/agent/hooks/guard.ts": USER_GUARD });
				writeFiles(dir, { ".xcsh/settings.json": JSON.stringify({ disabledExtensions: ["hook:pre:*:guard"] }) });
				const { row, emit, stdout } = await userGuard(dir, home);
				expectBlockedEmit(emit, "user guard");
				if (!row) throw new Error(`list does not show the user hook:\n${stdout}`);
				expect(row).not.toMatch(/shadowed|disabled/);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"not hidden by the project's settings (disabledProviders)",
			async () => {
				const dir = tempDir("xcsh-faults-approval-");
				const home = privateHome();
				writeFiles(home, { ".xcsh/agent/hooks/guard.ts": USER_GUARD });
				writeFiles(dir, { ".xcsh/settings.json": JSON.stringify({ disabledProviders: ["native"] }) });
				const { row, emit, stdout } = await userGuard(dir, home);
				expectBlockedEmit(emit, "user guard");
				if (!row) throw new Error(`list does not show the user hook that runs:\n${stdout}`);
				expect(row).not.toMatch(/shadowed|disabled/);
			},
			CELL_TIMEOUT_MS,
		);
	});

	test.concurrent("a hook swapped between approved content and other content while emit runs: the unapproved content never runs", async () => {
		const p = project(cli);
		await p.approve();
		const ran = marker(p.dir, "B-RAN");
		const other = `${touch(ran.path)}\nexport default (pi) => pi.on("tool_call", () => { ${touch(ran.path)} });\n`;
		const spare = join(p.dir, ".xcsh", "hooks", ".guard.ts.swap");
		let stop = false;
		let swaps = 0;
		const swapper = (async () => {
			// Atomic replacements (write a spare file, rename it over the hook), bounded in number.
			while (!stop && swaps < 20_000) {
				writeFileSync(spare, swaps % 2 === 0 ? other : ALLOW);
				renameSync(spare, p.hook);
				swaps++;
				await Bun.sleep(1);
			}
		})();
		const runs: Awaited<ReturnType<typeof runCli>>[] = [];
		try {
			for (let batch = 0; batch < 10; batch++)
				runs.push(
					...(await Promise.all(
						Array.from({ length: 4 }, () => runCli(cli, ["emit", "tool_call"], { cwd: p.dir, home: p.home, stdin: bashCall("ls") })),
					)),
				);
		} finally {
			stop = true;
			await swapper;
		}
		writeFileSync(p.hook, ALLOW);
		expect(ran.exists()).toBe(false);
		expect(runs.filter((r) => r.timedOut)).toEqual([]);
		// The race was exercised: some runs saw the other content (and refused or skipped it, naming the hook).
		expect(runs.some((r) => r.code !== 0 || r.stderr.includes(p.hook))).toBe(true);
		expect(swaps).toBeGreaterThan(runs.length);
	}, 60_000);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
