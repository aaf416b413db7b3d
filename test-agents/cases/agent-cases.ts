import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import { SPAWN_LOG } from "../agents/_served.ts";
import { homeServerStatus } from "../servers.ts";
import type { Sandbox } from "../sandbox.ts";
import type { Checks } from "../checks.ts";
import type { Outcome } from "../scenario.ts";
import { HARMLESS, REDACTED, SECRET } from "../scenario.ts";
import { approveHooks, bridgeHookFiles, bridgeMarkers } from "./_bridge.ts";
import { runProcess } from "../process.ts";
import { drive } from "./drive.ts";
import { checkNoDependencies, checkNothingInstalled } from "./plugin-cases.ts";
import { SELFCHECK, selfcheckMarkers, sh } from "./_selfcheck.ts";
import type { AgentCase } from "./types.ts";

const ALL = { deny: true, harmless: true, redact: true, context: true };

/** Control run: hooks that only log, so the same script must delete `data/` and leak the secret — the checks can fail. */
export function controlCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "harness control (log-only hooks: the destructive call runs)",
		needsBridge: false,
		run: (ctx, checks) =>
			drive(driver, ctx, checks, "control", {
				hooks: (s) => {
					const log = sh(join(s.logs, "hooks.log"));
					return {
						pre: `${sh(SELFCHECK.answer)} ${log} ''`,
						post: `${sh(SELFCHECK.answer)} ${log} ''`,
						prompt: `${sh(SELFCHECK.answer)} ${log} ''`,
					};
				},
				expect: { deny: false, harmless: true, redact: false, context: false },
				markers: selfcheckMarkers(),
				after(checks, { sandbox, server }) {
					checks.expect("control: `rm -rf data` ran without a guard (data/ is gone)", !existsSync(join(sandbox.proj, "data")));
					// An agent whose redaction is not checked needs no proof that it could fail (Droid also masks secrets itself).
					if (driver.masksSecrets) {
						const read = driver.api.toolResults(server.main().at(-1)?.body)[2];
						checks.expect(
							"control: without redaction hooks the model got the file unredacted by them (the agent masks the secret itself)",
							!!read && read.text.includes("API_KEY=") && !read.text.includes(REDACTED),
							JSON.stringify(read),
						);
					} else if (driver.cannot?.redact !== false) {
						const leaked = server.requests.some((q) => JSON.stringify(q.body).includes(SECRET));
						checks.expect("control: without redaction the secret reaches the model", leaked);
					}
					checks.expect("control: the hooks were called", existsSync(join(sandbox.logs, "hooks.log")));
				},
			}),
	};
}

/** Harness self-check: hand-written shell hooks in the agent's own protocol, no xcsh code. */
export function selfCheckCase(driver: AgentDriver): AgentCase {
	const markers = selfcheckMarkers();
	return {
		agent: driver.id,
		name: "harness self-check (hand-written shell hooks)",
		needsBridge: false,
		run: (ctx, checks) =>
			drive(driver, ctx, checks, "self", {
				hooks: (s) => {
					const log = sh(join(s.logs, "hooks.log"));
					return {
						pre: `${sh(SELFCHECK.deny)} ${log} ${sh(driver.selfcheck.deny(markers.deny))}`,
						post: `${sh(process.execPath)} ${sh(SELFCHECK.redact)} ${log} ${driver.id}`,
						prompt: `${sh(SELFCHECK.answer)} ${log} ${sh(driver.selfcheck.context(markers.context))}`,
					};
				},
				expect: { ...ALL, ...driver.cannot },
				markers,
			}),
	};
}

/** The real thing: the typed suite hooks in `.xcsh/hooks/`, approved in the private HOME, run by `xcsh-hooks bridge <agent>`. */
export function bridgeCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks bridge ${driver.id} (typed hooks in .xcsh/hooks, trusted)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const command = `${sh(exe)} bridge ${driver.id}`;
			return drive(driver, ctx, checks, "bridge", {
				files: bridgeHookFiles(),
				hooks: () => ({ pre: command, post: command, prompt: command }),
				async prepare(sandbox, c) {
					const approved = await approveHooks(exe, sandbox);
					if (!c.expect("`xcsh-hooks trust approve` accepted the project hooks", approved.ok, approved.detail)) return false;
					// A plugin that talks to a running hook server itself: one is started first, and no call may start a process.
					return !driver.servedByItself || startHomeServer(exe, sandbox, c);
				},
				expect: { ...ALL, ...driver.cannot },
				markers: bridgeMarkers(),
				// One agent proves the default users get: the calls after the first are served.
				...(driver.id === "claude" || driver.servedByItself ? { servedBy: exe } : {}),
				...(driver.servedByItself
					? {
							after: (c: Checks, o: Outcome) => {
								if (driver.id === "pi") checkTurnContext(c, o);
								checkNoSpawn(c, o, driver.id);
							},
						}
					: {}),
			});
		},
	};
}

/**
 * The agent started in a subfolder of a guarded git project (issue 34: a real Codex run started in
 * `proj/src/deep` ran the destroy its project's guard blocks, the bridge looking for hooks only in the
 * payload's `cwd`). The typed hooks of `proj/.xcsh/hooks`, approved, must still guard, redact and add
 * context; the script's `rm -rf data` runs in the subfolder, whose own `data/` must survive. The
 * bridge entries are where the agent reads them from a subfolder: Codex's project `.codex/hooks.json`
 * (found up to the git root), the user's config for the agents that read their project config only in
 * the folder they start in ({@link AgentDriver.configureUser}).
 */
export function subfolderCase(driver: AgentDriver): AgentCase {
	const sub = "src/deep";
	return {
		agent: driver.id,
		name: `xcsh-hooks bridge ${driver.id} started in a subfolder of the project (proj/${sub})`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const command = `${sh(exe)} bridge ${driver.id}`;
			return drive(driver, ctx, checks, "subfolder", {
				files: { ...bridgeHookFiles(), [`proj/${sub}/data/keep.txt`]: "must survive\n" },
				startIn: sub,
				async prepare(sandbox, c) {
					const hooks = { pre: command, post: command, prompt: command };
					if (driver.configureUser) driver.configureUser(sandbox, hooks);
					else driver.configure(sandbox, hooks);
					// A git repository, as a user's project is: the agents find their project config up to its root.
					const git = Bun.spawnSync(["git", "init", "-q"], { cwd: sandbox.proj, env: sandbox.env() });
					if (!c.expect("`git init` in the project", git.exitCode === 0, git.stderr.toString())) return false;
					const approved = await approveHooks(exe, sandbox);
					return c.expect("`xcsh-hooks trust approve` accepted the project hooks", approved.ok, approved.detail);
				},
				// The harmless call runs in the subfolder: checked below instead of in `proj/`. Gemini CLI refuses to
				// read a file outside the folder it was started in (`proj/deploy.conf`), so there is nothing to redact.
				expect: { ...ALL, harmless: false, ...driver.cannot, ...(driver.id === "gemini" ? { redact: false } : {}) },
				markers: bridgeMarkers(),
				after(checks, { sandbox, server, api }) {
					checks.expect(
						`subfolder: \`rm -rf data\` did not run in proj/${sub} (its data/keep.txt is still there)`,
						existsSync(join(sandbox.cwd, "data", "keep.txt")),
					);
					const harmless = api.toolResults(server.main().at(-1)?.body)[1];
					checks.expect(
						`subfolder: the harmless call ran in proj/${sub} and the model got its output`,
						existsSync(join(sandbox.cwd, "harmless.txt")) && !!harmless?.text.includes(HARMLESS),
						`result: ${JSON.stringify(harmless)}`,
					);
				},
			});
		},
	};
}

/** Starts `serve --socket` under the sandbox HOME, as autostart does (cwd: its agent folder), and waits until it answers. */
async function startHomeServer(exe: string, sandbox: Sandbox, checks: Checks): Promise<boolean> {
	const dir = join(sandbox.home, ".xcsh", "agent");
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const proc = Bun.spawn([exe, "serve", "--socket", "--idle-exit", "10"], {
		cwd: dir,
		env: sandbox.env(),
		stdin: "ignore",
		stdout: "ignore",
		stderr: Bun.file(join(sandbox.logs, "server.err")),
		detached: true,
	});
	proc.unref();
	for (let i = 0; i < 120 && !(await homeServerStatus(sandbox.home)); i++) await Bun.sleep(250);
	return checks.expect("`serve --socket` runs under the sandbox HOME", (await homeServerStatus(sandbox.home)) !== undefined);
}

/** With the server running, the plugin served every call over the socket: its bridge command never ran as a process. */
function checkNoSpawn(checks: Checks, { sandbox }: Outcome, agent: string): void {
	const log = join(sandbox.logs, SPAWN_LOG);
	const spawns = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).length : 0;
	checks.expect(
		`socket path: no \`xcsh-hooks bridge ${agent}\` process was started for any call (all went over the server's socket)`,
		spawns === 0,
		`${spawns} spawned`,
	);
}

/** pi forwards its `context` event: the suite's context hook put its message into every main model request. */
function checkTurnContext(checks: Checks, { server }: Outcome): void {
	const main = server.main();
	const carrying = main.filter((q) => JSON.stringify(q.body).includes("XCSH-TURN-CONTEXT"));
	checks.expect(
		"context: pi's context event reached the hooks, and the message they added is in every model request",
		main.length > 0 && carrying.length === main.length,
		`${carrying.length} of ${main.length} main requests carry it`,
	);
}

/** The same typed hooks given with `--hook <abs path>` (the user's own choice: no approval needed). */
export function bridgeHookFlagCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks --hook … bridge ${driver.id} (typed hooks outside the project)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const files = Object.fromEntries(
				Object.entries(bridgeHookFiles()).map(([path, text]) => [path.replace("proj/.xcsh/hooks/", "own-hooks/"), text]),
			);
			return drive(driver, ctx, checks, "hookflag", {
				files,
				hooks(sandbox) {
					const flags = Object.keys(files)
						.map((path) => `--hook ${sh(join(sandbox.root, path))}`)
						.join(" ");
					const command = `${sh(exe)} ${flags} bridge ${driver.id}`;
					return { pre: command, post: command, prompt: command };
				},
				expect: { ...ALL, ...driver.cannot },
				markers: bridgeMarkers(),
			});
		},
	};
}

/**
 * A new user's path, with no other step (issue 10 "done when"): `xcsh-hooks init guard` in the project
 * (which approves what it writes), then `xcsh-hooks install <agent>` writes the agent's config, and the
 * agent runs. The scaffolded guard must block `rm -rf data`; the harmless call must still run.
 */
export function initInstallCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks init guard + xcsh-hooks install ${driver.id}, nothing else`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "init-install", {
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const init = await run(["init", "guard"]);
					if (
						!c.expect(
							"`xcsh-hooks init guard` scaffolded and approved the guard",
							init.code === 0,
							`exit ${init.code}: ${init.stderr.trim()}`,
						)
					)
						return false;
					const install = await run(["install", driver.id]);
					const ok = c.expect(
						`\`xcsh-hooks install ${driver.id}\` wrote the agent's config`,
						install.code === 0,
						`exit ${install.code}: ${install.stderr.trim()}`,
					);
					// In-process agents: the executable alone guards them, with no package installed into the agent.
					return ok && (!driver.inProcess || checkNothingInstalled(driver, sandbox, c));
				},
				after: (c, { sandbox }) => {
					if (driver.inProcess) checkNoDependencies(driver, sandbox, c);
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: {
					deny: "guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]",
					context: "",
				},
			});
		},
	};
}

/**
 * A typed hook that fails to load (it registers the misspelt event `tool_cal`, which pi itself accepts
 * silently): through `install <agent>`, every tool call is blocked with a reason naming the hook, and
 * nothing the script asked for runs.
 */
export function loadErrorCase(driver: AgentDriver): AgentCase {
	const hook = "typo.ts";
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id}: a hook that fails to load blocks every tool call`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "load-error", {
				files: { [`proj/.xcsh/hooks/${hook}`]: `export default function (pi) {\n\tpi.on("tool_cal", () => {});\n}\n` },
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const approved = await run(["trust", "approve", join(sandbox.proj, ".xcsh", "hooks", hook)]);
					if (!c.expect("`xcsh-hooks trust approve` accepted the hook", approved.code === 0, approved.stderr.trim())) return false;
					const install = await run(["install", driver.id]);
					return c.expect(`\`xcsh-hooks install ${driver.id}\` wrote the agent's config`, install.code === 0, install.stderr.trim());
				},
				expect: { deny: true, harmless: false, redact: false, context: false },
				markers: { deny: hook, context: "" },
				after(checks, { sandbox, server, api }) {
					checks.expect("load error: the harmless call did not run either", !existsSync(join(sandbox.proj, "harmless.txt")));
					const results = api.toolResults(server.main().at(-1)?.body);
					checks.expect(
						"load error: every tool result names the hook",
						results.length === 3 && results.every((r) => r.text.includes(hook)),
						JSON.stringify(results).slice(0, 600),
					);
				},
			});
		},
	};
}
