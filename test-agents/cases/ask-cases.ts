import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import { runProcess } from "../process.ts";
import { drive } from "./drive.ts";
import { sh } from "./_selfcheck.ts";
import type { AgentCase } from "./types.ts";

/** The suite's asking hook: `rm -rf` is put to a person (`{ask: true, reason}`), everything else is allowed. */
export const ASK_HOOK = `export default function (pi) {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && command.includes("rm -rf")) return { ask: true, reason: \`XCSH-ASK: a person must approve (\${command})\` };
	});
}
`;

/** What the text of our own deny of an ask says (src/agents/_shared/answer.ts `askAsDeny`). */
const OUR_DENY = "cannot ask for it here, so the call is denied";

/**
 * What each agent does, headless, with the ask its bridge answers (docs/ask.md): `agent` = the agent's own
 * ask, which it turns into a deny since nobody can be asked (the text it adds, when it adds one); `ours` =
 * the bridge's deny naming the ask, because the agent would run the call or cannot carry an ask.
 */
const HEADLESS: Record<string, { by: "agent"; says?: string } | { by: "ours" }> = {
	claude: { by: "agent" },
	copilot: { by: "agent", says: "unable to ask user for confirmation" },
	qwen: { by: "agent" },
	// Gemini 0.61 honours an ask with its own prompt even under --yolo, but headless it then waits until killed.
	gemini: { by: "ours" },
	codex: { by: "ours" },
	droid: { by: "ours" },
	cline: { by: "ours" },
	pi: { by: "ours" },
	auggie: { by: "ours" },
};

/**
 * A hook that asks about `rm -rf data` (given with `--hook`), in the agent's non-interactive run: the call
 * never runs, the reason reaches the model in that call's result, and the harmless call still runs. Who
 * said no is checked too: the agent itself where it honours an ask, our deny where it would run the call.
 */
export function askCase(driver: AgentDriver): AgentCase {
	const expected = HEADLESS[driver.id] ?? { by: "ours" };
	return {
		agent: driver.id,
		name: `ask: a hook asks about rm -rf (${expected.by === "agent" ? "the agent's own ask, denied headless" : "our deny, naming the ask"})`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "ask", {
				files: { "own-hooks/ask.ts": ASK_HOOK },
				hooks(sandbox) {
					const command = `${sh(exe)} --hook ${sh(join(sandbox.root, "own-hooks", "ask.ts"))} bridge ${driver.id}`;
					return { pre: command, post: command, prompt: command };
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: { deny: "XCSH-ASK: a person must approve (rm -rf data)", context: "" },
				after(c, { server, api, sandbox }) {
					const denied = api.toolResults(server.main().at(-1)?.body)[0]?.text ?? "";
					ctx.log(`the model got, for rm -rf data: ${JSON.stringify(denied.slice(0, 300))}`);
					if (expected.by === "ours")
						c.expect("ask: answered with our deny, which says a hook asked", denied.includes(OUR_DENY), denied.slice(0, 400));
					else {
						c.expect("ask: answered with the agent's own ask (not our deny)", !denied.includes(OUR_DENY), denied.slice(0, 400));
						if (expected.says) c.expect(`ask: the agent says "${expected.says}"`, denied.includes(expected.says), denied.slice(0, 400));
					}
					const log = join(sandbox.home, ".xcsh", "agent", "decisions.jsonl");
					const logged = existsSync(log) ? readFileSync(log, "utf8") : "";
					c.expect("ask: the decision log records the ask", logged.includes('"decision":"ask"'), logged.slice(-400));
				},
			});
		},
	};
}

/** The suite's permission hook: it refuses the agent's approval prompt for `rm -rf`, and says nothing about the rest. */
const PERMISSION_HOOK = `export default function (pi) {
	pi.on("permission_request", (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && command.includes("rm -rf")) return { decision: "deny", reason: \`XCSH-PERM-DENY: refused at the approval prompt (\${command})\` };
	});
}
`;

/**
 * `permission_request` on the real client, the way a user gets it: a project hook approved with `trust
 * approve`, and `install <agent>`, which registers the agent's permission event. The agent's approval
 * prompt for `rm -rf data` is refused by the hook: the call never runs and the hook's reason reaches the
 * model. Copilot CLI fires `permissionRequest` even with --allow-all-tools; Claude Code is given an ask
 * rule for the command (`permissions.ask`), so it would prompt.
 */
export function permissionCase(driver: AgentDriver): AgentCase {
	const hook = "perm.ts";
	return {
		agent: driver.id,
		name: `permission_request: install ${driver.id}; a hook refuses the approval prompt for rm -rf`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "permission", {
				files: { [`proj/.xcsh/hooks/${hook}`]: PERMISSION_HOOK },
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const approved = await run(["trust", "approve", join(sandbox.proj, ".xcsh", "hooks", hook)]);
					if (!c.expect("`xcsh-hooks trust approve` accepted the hook", approved.code === 0, approved.stderr.trim())) return false;
					// The project's entries name xcsh-hooks on PATH unless told its path; the sandbox's PATH has no xcsh-hooks.
					const install = await run(["install", driver.id, "--command", exe]);
					if (!c.expect(`\`xcsh-hooks install ${driver.id}\` wrote the agent's config`, install.code === 0, install.stderr.trim()))
						return false;
					if (driver.id === "claude") {
						const file = join(sandbox.proj, ".claude", "settings.json");
						const settings = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
						writeFileSync(file, `${JSON.stringify({ ...settings, permissions: { ask: ["Bash(rm -rf data)"] } }, null, 2)}\n`);
					}
					return true;
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: { deny: "XCSH-PERM-DENY: refused at the approval prompt (rm -rf data)", context: "" },
				after(_checks, { server, api }) {
					const denied = api.toolResults(server.main().at(-1)?.body)[0]?.text ?? "";
					ctx.log(`the model got, for rm -rf data: ${JSON.stringify(denied.slice(0, 300))}`);
				},
			});
		},
	};
}

/**
 * An agent that loads our plugin in-process (OpenCode, Kilo): the plugin has nobody to put an ask to, so
 * the call is blocked, the reason saying so; installed as a user gets it (`trust approve` + `install`).
 */
export function pluginAskCase(driver: AgentDriver): AgentCase {
	const hook = "ask.ts";
	return {
		agent: driver.id,
		name: `ask: a hook asks about rm -rf in ${driver.id}'s in-process plugin (blocked: nobody to ask)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			return drive(driver, ctx, checks, "ask", {
				files: { [`proj/.xcsh/hooks/${hook}`]: ASK_HOOK },
				async prepare(sandbox, c) {
					const run = (args: string[]) => runProcess([exe, ...args], { cwd: sandbox.proj, env: sandbox.env(), timeoutMs: 30_000 });
					const approved = await run(["trust", "approve", join(sandbox.proj, ".xcsh", "hooks", hook)]);
					if (!c.expect("`xcsh-hooks trust approve` accepted the hook", approved.code === 0, approved.stderr.trim())) return false;
					const install = await run(["install", driver.id]);
					return c.expect(`\`xcsh-hooks install ${driver.id}\` wrote the plugin`, install.code === 0, install.stderr.trim());
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: { deny: "XCSH-ASK: a person must approve (rm -rf data)", context: "" },
				after(c, { server, api }) {
					const denied = api.toolResults(server.main().at(-1)?.body)[0]?.text ?? "";
					ctx.log(`the model got, for rm -rf data: ${JSON.stringify(denied.slice(0, 300))}`);
					c.expect("ask: the block says nobody could be asked", denied.includes("there is no one to ask here"), denied.slice(0, 400));
				},
			});
		},
	};
}
