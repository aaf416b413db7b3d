import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import type { Checks } from "../checks.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import { type Outcome, REDACTED, SECRET } from "../scenario.ts";
import { approveHooks, bridgeHookFiles, bridgeMarkers } from "./_bridge.ts";
import { sh } from "./_selfcheck.ts";
import { drive } from "./drive.ts";
import type { AgentCase, CaseContext } from "./types.ts";

/*
 * What only Auggie needs proving (docs/agents/auggie.md): it runs a tool call whose hook fails or times
 * out, so the entry `install auggie` writes must block whatever happens to the bridge; and it has no
 * answer that replaces an output or hands prompt context to the model, so those reach it only as far as
 * its protocol goes.
 */

/** What the guard's deny says when our entry's shell blocked a call the bridge never answered. */
const NO_ANSWER = "ended without an answer";

const exeOf = (ctx: CaseContext): string => {
	if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
	return ctx.bridge.exe;
};

/** `install auggie --command <program>` in the project: the entries run `<program> bridge auggie …` through our shell. */
async function installWith(exe: string, sandbox: Sandbox, checks: Checks, program: string): Promise<boolean> {
	const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
	const init = await run(["init", "guard"]);
	const install = await run(["install", "auggie", "--command", program]);
	return checks.expect(
		`\`init guard\` and \`install auggie --command ${program}\` ran`,
		init.code === 0 && install.code === 0,
		`${init.stderr}${install.stderr}`.trim(),
	);
}

/** The model's three tool results were each blocked by our shell, and nothing the script asked for ran. */
function everyCallBlocked(checks: Checks, { sandbox, server, api }: Outcome): void {
	checks.expect("the harmless call did not run either", !existsSync(join(sandbox.proj, "harmless.txt")));
	const results = api.toolResults(server.main().at(-1)?.body);
	checks.expect(
		"every tool result is an error naming the bridge that ended without an answer",
		results.length === 3 && results.every((r) => r.isError === true && r.text.includes(NO_ANSWER)),
		JSON.stringify(results).slice(0, 800),
	);
}

/** The bridge is killed before it answers (SIGKILL): Auggie would run the call; the entry's exit 2 blocks it. */
function killedCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "install auggie: a bridge killed before it answers blocks every tool call",
		needsBridge: true,
		run: (ctx, checks) =>
			drive(driver, ctx, checks, "killed", {
				files: { "bin/killed.sh": "#!/bin/sh\nkill -KILL $$\n" },
				prepare: (sandbox, c) => installWith(exeOf(ctx), sandbox, c, join(sandbox.root, "bin", "killed.sh")),
				expect: { deny: true, harmless: false, redact: false, context: false },
				markers: { deny: `${NO_ANSWER} (exit status 137)`, context: "" },
				after: everyCallBlocked,
			}),
	};
}

/** The executable the entries name is gone (moved, uninstalled): every call is blocked, none runs. */
function missingCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "install auggie: a missing xcsh-hooks executable blocks every tool call",
		needsBridge: true,
		run: (ctx, checks) =>
			drive(driver, ctx, checks, "missing", {
				prepare: (sandbox, c) => installWith(exeOf(ctx), sandbox, c, join(sandbox.root, "gone", "xcsh-hooks")),
				expect: { deny: true, harmless: false, redact: false, context: false },
				markers: { deny: `${NO_ANSWER} (exit status 127)`, context: "" },
				after: everyCallBlocked,
			}),
	};
}

/**
 * A bridge that hangs on the destructive call and ignores SIGTERM (the other calls go to the real
 * bridge): the entry's shell ends it at 54 s, before Auggie's 60 s timeout would run the call.
 */
function hangCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "install auggie: a bridge that hangs is ended before Auggie's timeout, and the call is blocked",
		needsBridge: true,
		run: (ctx, checks) => {
			const exe = exeOf(ctx);
			const hang = `#!/bin/sh\ninput=$(cat)\ncase "$input" in *'rm -rf'*) trap '' TERM; exec sleep 600 ;; esac\nprintf '%s' "$input" | exec ${sh(exe)} "$@"\n`;
			return drive(driver, { ...ctx, timeoutMs: Math.max(ctx.timeoutMs, 240_000) }, checks, "hang", {
				files: { "bin/hang.sh": hang },
				prepare: (sandbox, c) => installWith(exe, sandbox, c, join(sandbox.root, "bin", "hang.sh")),
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: { deny: `${NO_ANSWER} (exit status 137)`, context: "" },
			});
		},
	};
}

/**
 * The control for {@link hangCase}: a hook of the user's own that outlives Auggie's timeout (2 s here)
 * lets the call run, so a hang our entry did not end would delete `data/`.
 */
function timeoutControlCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "harness control: a hook past Auggie's timeout lets the call run (Auggie fails open)",
		needsBridge: false,
		run: (ctx, checks) =>
			drive(driver, ctx, checks, "timeout-control", {
				files: {
					"bin/slow.sh": "#!/bin/sh\ncat >/dev/null\nexec sleep 5\n",
				},
				async prepare(sandbox) {
					const slow = join(sandbox.root, "bin", "slow.sh");
					const entry = [{ matcher: ".*", hooks: [{ type: "command", command: slow, timeout: 2000 }] }];
					sandbox.write({ "proj/.augment/settings.json": `${JSON.stringify({ hooks: { PreToolUse: entry } }, null, 2)}\n` });
					return true;
				},
				expect: { deny: false, harmless: true, redact: false, context: false },
				markers: { deny: "", context: "" },
				after(c, { sandbox }) {
					c.expect("control: the timed-out hook did not stop `rm -rf data` (data/ is gone)", !existsSync(join(sandbox.proj, "data")));
				},
			}),
	};
}

/**
 * The typed suite hooks through `bridge auggie`: the redaction reaches the model only after the original
 * output (`[Hook Context]`), and the prompt context not at all, which is what the docs page says.
 */
function redactContextCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "xcsh-hooks bridge auggie: a redaction follows the output as [Hook Context]; prompt context reaches no request",
		needsBridge: true,
		run(ctx, checks) {
			const exe = exeOf(ctx);
			const command = `${sh(exe)} bridge auggie`;
			const markers = bridgeMarkers();
			return drive(driver, ctx, checks, "redact-context", {
				files: bridgeHookFiles(),
				hooks: () => ({ pre: command, post: command, prompt: command }),
				async prepare(sandbox, c) {
					const approved = await approveHooks(exe, sandbox);
					return c.expect("`xcsh-hooks trust approve` accepted the project hooks", approved.ok, approved.detail);
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers,
				after(c, { server, api }) {
					const read = api.toolResults(server.main().at(-1)?.body)[2];
					const text = read?.text ?? "";
					const context = text.indexOf("[Hook Context]");
					c.expect(
						"redaction: the redacted file follows the output as [Hook Context]",
						context > 0 && text.indexOf(REDACTED, context) > context,
						JSON.stringify(read),
					);
					c.expect(
						"redaction: the original output stays before it (Auggie cannot replace an output)",
						context > 0 && text.slice(0, context).includes(SECRET),
					);
					const carried = server.requests.some((q) => JSON.stringify(q.body).includes(markers.context));
					c.expect("context: no request carries the prompt hook's context (Auggie does not hand it on)", !carried);
				},
			});
		},
	};
}

/** `init guard` + `install auggie --user`: Auggie runs the entries of `~/.augment/settings.json` in any project. */
function userInstallCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "xcsh-hooks init guard + xcsh-hooks install auggie --user",
		needsBridge: true,
		run(ctx, checks) {
			const exe = exeOf(ctx);
			return drive(driver, ctx, checks, "user-install", {
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const init = await run(["init", "guard"]);
					const install = await run(["install", "auggie", "--user"]);
					const ok = c.expect(
						"`init guard` and `install auggie --user` ran",
						init.code === 0 && install.code === 0,
						`${init.stderr}${install.stderr}`.trim(),
					);
					return ok && c.expect("the entries are in ~/.augment/settings.json only", !existsSync(join(sandbox.proj, ".augment")));
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

/** Auggie's own cases, after the standard ones. */
export function auggieCases(driver: AgentDriver): AgentCase[] {
	return [
		redactContextCase(driver),
		userInstallCase(driver),
		killedCase(driver),
		missingCase(driver),
		timeoutControlCase(driver),
		hangCase(driver),
	];
}
