/**
 * The project is found from any folder inside it
 * (docs/sources-and-trust.md#projects-found-from-any-folder-inside-them). An agent started in `proj/src/deep` names that folder (Codex's payload `cwd`, Claude's
 * `CLAUDE_PROJECT_DIR`, Gemini's `GEMINI_PROJECT_DIR`); the project's approved guard must still
 * decide — through every bridge, a served call, `emit --cwd`, the in-process plugin `install` wrote —
 * with `ctx.cwd` still the folder the agent runs in. The climb stops at the git root and below the
 * home folder, and a nested `.xcsh/` never takes the outer guard away.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, minimalEnv, runArgv, runCli, useClis } from "./_cli.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "./_fixtures.ts";
import { socketOf, startSocketServer, stopServers } from "./_socket.ts";

const clis = useClis();
const FIXTURES = join(import.meta.dir, "..", "bridges", "fixtures");
const FAKE_OPENCODE = join(import.meta.dir, "..", "inprocess", "_fake-opencode.ts");

/** A guard blocking `needle`, its reason naming the folder the hook was given as `ctx.cwd`. */
const guard = (needle: string, tag: string) => `export default function (pi) {
	pi.on("tool_call", (event, ctx) => {
		if (String(event.input.command ?? "").includes(${JSON.stringify(needle)}))
			return { block: true, reason: ${JSON.stringify(`${tag}: ${needle} is not allowed`)} + " (cwd " + ctx.cwd + ")" };
	});
}
`;
const RM = "rm -rf build";
const TERRAFORM = "terraform destroy -auto-approve";

/** Writes `files` under `root` and approves the given hooks (paths under `root`) in `home`. */
async function project(cli: Cli, root: string, home: string, files: Record<string, string>, approve: string[]) {
	writeFiles(root, files);
	if (approve.length === 0) return;
	const run = await runCli(cli, ["trust", "approve", ...approve.map((p) => join(root, p))], { cwd: root, home, timeoutMs: 30_000 });
	if (run.code !== 0) throw new Error(`trust approve failed (${run.code}): ${run.stderr}`);
}

/** A git project whose approved `.xcsh/hooks/guard.ts` blocks `rm -rf`, and its folder `src/deep`. */
async function guarded(cli: Cli) {
	const root = tempDir("xcsh-faults-subdir-");
	const home = privateHome();
	await project(
		cli,
		root,
		home,
		{ ".git/HEAD": "ref: refs/heads/main\n", ".xcsh/hooks/guard.ts": guard("rm -rf", "PROJECT-GUARD"), "src/deep/app.ts": "" },
		[".xcsh/hooks/guard.ts"],
	);
	return { root, home, deep: join(root, "src", "deep") };
}

/** The recorded PreToolUse-style payload of `agent` for a shell `command`, with `cwd` (and the transcript) in `dir`. */
function payload(agent: "claude" | "codex" | "gemini", dir: string, command: string): string {
	const file = { claude: "claude/PreToolUse.Bash.json", codex: "codex/PreToolUse.json", gemini: "gemini/BeforeTool.json" }[agent];
	const recorded = JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as Record<string, unknown>;
	return JSON.stringify({ ...recorded, cwd: dir, transcript_path: join(dir, "no-transcript.jsonl"), tool_input: { command } });
}

/** The deny reason of an answer of `agent`, or undefined for anything else. */
function denied(agent: "claude" | "codex" | "gemini", stdout: string): string | undefined {
	if (!stdout.trim()) return undefined;
	const answer = JSON.parse(stdout) as any;
	if (agent === "gemini") return answer.decision === "deny" ? answer.reason : undefined;
	const out = answer.hookSpecificOutput;
	return out?.permissionDecision === "deny" ? out.permissionDecisionReason : undefined;
}

/** Each agent's variable naming the folder it was started in (Codex has none: only the payload's `cwd`). */
const VARIABLE = { claude: "CLAUDE_PROJECT_DIR", codex: undefined, gemini: "GEMINI_PROJECT_DIR" } as const;

for (const cli of clis)
	describe(cli.name, () => {
		for (const agent of ["claude", "codex", "gemini"] as const)
			test(`bridge ${agent} started in a deep subfolder: the project's approved guard denies, ctx.cwd is the subfolder`, async () => {
				const { home, deep } = await guarded(cli);
				const variable = VARIABLE[agent];
				const env = minimalEnv(home, variable ? { [variable]: deep } : {});
				const run = await runCli(cli, ["bridge", agent], { cwd: deep, home, env, stdin: payload(agent, deep, RM), timeoutMs: 30_000 });
				expect(run.code).toBe(0);
				const reason = denied(agent, run.stdout);
				expect({ reason, stderr: run.stderr }).toEqual({ reason: expect.stringContaining("PROJECT-GUARD: rm -rf"), stderr: run.stderr });
				expect(reason).toContain(`(cwd ${deep})`);
				// The harmless call is still allowed: the subfolder's project adds the guard, nothing else.
				const harmless = await runCli(cli, ["bridge", agent], {
					cwd: deep,
					home,
					env,
					stdin: payload(agent, deep, "ls"),
					timeoutMs: 30_000,
				});
				expect(denied(agent, harmless.stdout)).toBeUndefined();
			}, 90_000);

		test("a served call (serve --socket) from a deep subfolder: the project's guard denies", async () => {
			const { home, deep } = await guarded(cli);
			try {
				await startSocketServer(cli, home, home);
				const env = minimalEnv(home, { XCSH_HOOKS_SERVER: "on" });
				const run = await runCli(cli, ["bridge", "codex"], { cwd: deep, home, env, stdin: payload("codex", deep, RM), timeoutMs: 30_000 });
				expect(denied("codex", run.stdout)).toContain("PROJECT-GUARD: rm -rf");
				const status = await runCli(cli, ["serve", "--status", "--json"], { cwd: deep, home, timeoutMs: 30_000 });
				expect(JSON.parse(status.stdout)).toMatchObject({ running: true, served: 1 });
			} finally {
				await stopServers();
			}
			expect(existsSync(socketOf(home))).toBe(false);
		}, 90_000);

		test("emit --cwd <deep subfolder>: blocked by the project's guard; trust and list from there find it", async () => {
			const { root, home, deep } = await guarded(cli);
			const run = await runCli(cli, ["emit", "tool_call", "--cwd", deep], { cwd: home, home, stdin: bashCall(RM), timeoutMs: 30_000 });
			expect(run.code).toBe(2);
			expect(JSON.parse(run.stdout).result).toEqual({ block: true, reason: `PROJECT-GUARD: rm -rf is not allowed (cwd ${deep})` });
			// The approval given at the root is the one found from the subfolder.
			const trust = await runCli(cli, ["trust", "--json"], { cwd: deep, home, timeoutMs: 30_000 });
			expect(JSON.parse(trust.stdout).hooks).toEqual([
				{ path: expect.stringMatching(/\/\.xcsh\/hooks\/guard\.ts$/), status: "approved", approvedBy: "local" },
			]);
			// `list` names the project it found, and the hook as one that runs.
			const list = JSON.parse((await runCli(cli, ["list", "--json"], { cwd: deep, home, timeoutMs: 30_000 })).stdout);
			expect(list.project).toEqual({ root, layers: [root] });
			expect(list.hooks).toEqual([expect.objectContaining({ path: join(root, ".xcsh", "hooks", "guard.ts"), status: "run" })]);
		}, 90_000);

		test("install opencode below the root says where the root is and writes there; the plugin started in the subfolder blocks", async () => {
			const { root, home, deep } = await guarded(cli);
			const installed = await runCli(cli, ["install", "opencode"], { cwd: deep, home, timeoutMs: 30_000 });
			expect(installed.code).toBe(0);
			expect(installed.stderr).toContain(`${deep} is inside the project ${root}`);
			const plugin = join(root, ".opencode", "plugin", "xcsh-hooks.ts");
			expect(existsSync(plugin)).toBe(true);
			expect(existsSync(join(deep, ".opencode"))).toBe(false);
			// The real plugin entry, loaded as OpenCode loads it, with OpenCode's `directory` the subfolder.
			const host = await runArgv([process.execPath, FAKE_OPENCODE, plugin, "rm,harmless"], {
				cwd: deep,
				home,
				env: minimalEnv(home),
				timeoutMs: 60_000,
			});
			expect(host.code).toBe(0);
			const out = JSON.parse(host.stdout.trim().split("\n").at(-1) as string);
			expect(out.rm).toEqual({ ran: false, reason: expect.stringContaining(`PROJECT-GUARD: rm -rf is not allowed (cwd ${deep})`) });
			expect(out.harmless.ran).toBe(true);
		}, 90_000);

		test("init guard in a subfolder of a git repository writes the guard at its root (said on stderr), which then guards the subfolder", async () => {
			const root = tempDir("xcsh-faults-subdir-init-");
			const home = privateHome();
			writeFiles(root, { ".git/HEAD": "ref: refs/heads/main\n", "src/deep/app.ts": "" });
			const deep = join(root, "src", "deep");
			const init = await runCli(cli, ["init", "guard"], { cwd: deep, home, timeoutMs: 60_000 });
			expect(init.code).toBe(0);
			expect(init.stderr).toContain(`${deep} is inside the project ${root}`);
			expect(existsSync(join(root, ".xcsh", "hooks", "guard.ts"))).toBe(true);
			expect(existsSync(join(deep, ".xcsh"))).toBe(false);
			const run = await runCli(cli, ["emit", "tool_call"], { cwd: deep, home, stdin: bashCall("rm -rf src"), timeoutMs: 30_000 });
			expect(run.code).toBe(2);
		}, 120_000);

		test("bounds: a project above the git root is not used, and home's own .xcsh is no project", async () => {
			const outer = tempDir("xcsh-faults-bounds-");
			const home = privateHome();
			// Above the repository: an approved guard of terraform, which must not apply inside the repository.
			await project(
				cli,
				outer,
				home,
				{
					".xcsh/hooks/outer.ts": guard("terraform", "OUTER-GUARD"),
					"repo/.git/HEAD": "ref: refs/heads/main\n",
					"repo/.xcsh/hooks/guard.ts": guard("rm -rf", "PROJECT-GUARD"),
					"repo/src/deep/app.ts": "",
				},
				[".xcsh/hooks/outer.ts", "repo/.xcsh/hooks/guard.ts"],
			);
			const deep = join(outer, "repo", "src", "deep");
			const emit = (cwd: string, command: string) =>
				runCli(cli, ["emit", "tool_call", "--cwd", cwd], { cwd, home, stdin: bashCall(command), timeoutMs: 30_000 });
			expect(JSON.parse((await emit(deep, RM)).stdout).result).toMatchObject({
				block: true,
				reason: expect.stringContaining("PROJECT-GUARD"),
			});
			expect((await emit(deep, TERRAFORM)).code).toBe(0);
			// In home: `~/.xcsh/hooks` (approved, as a project hook would be) is the user's level, never a project climbed into.
			await project(
				cli,
				home,
				home,
				{
					".xcsh/hooks/home.ts": guard("terraform", "HOME-GUARD"),
					"work/proj/.xcsh/hooks/guard.ts": guard("rm -rf", "PROJECT-GUARD"),
					"work/proj/src/x.ts": "",
				},
				[".xcsh/hooks/home.ts", "work/proj/.xcsh/hooks/guard.ts"],
			);
			const inHome = join(home, "work", "proj", "src");
			expect(JSON.parse((await emit(inHome, RM)).stdout).result).toMatchObject({
				block: true,
				reason: expect.stringContaining("PROJECT-GUARD"),
			});
			const terraform = await emit(inHome, TERRAFORM);
			expect({ code: terraform.code, out: terraform.stdout }).toEqual({ code: 0, out: expect.not.stringContaining("HOME-GUARD") });
		}, 120_000);

		test("a nested .xcsh/ (empty hooks, settings disabling everything, an approved same-named hook) never takes the outer guard away", async () => {
			const { root, home } = await guarded(cli);
			await project(
				cli,
				root,
				home,
				{
					"vendor/x/.xcsh/hooks/guard.ts": "export default function () {}\n",
					"vendor/x/.xcsh/settings.json": JSON.stringify({
						disabledProviders: ["native", "claude", "codex"],
						disabledExtensions: ["hook:pre:*:guard"],
					}),
					"vendor/x/lib/deep/file.ts": "",
				},
				["vendor/x/.xcsh/hooks/guard.ts"],
			);
			const inside = join(root, "vendor", "x", "lib", "deep");
			for (const agent of ["codex", "claude"] as const) {
				const run = await runCli(cli, ["bridge", agent], { cwd: inside, home, stdin: payload(agent, inside, RM), timeoutMs: 30_000 });
				expect(denied(agent, run.stdout)).toContain("PROJECT-GUARD: rm -rf");
			}
		}, 90_000);
	});
