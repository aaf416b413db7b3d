import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { codexConfig } from "../agents/codex.ts";
import { USER_SETTINGS as GEMINI_USER_SETTINGS } from "../agents/gemini.ts";
import type { AgentDriver } from "../agents/types.ts";
import type { Sandbox } from "../sandbox.ts";
import { bridgeMarkers } from "./_bridge.ts";
import { drive } from "./drive.ts";
import { sh } from "./_selfcheck.ts";
import type { AgentCase } from "./types.ts";

const GUARD = join(import.meta.dir, "..", "fixtures", "xcsh", "guard.ts");

/** Per agent: its managed file, what it checks there, and the project's and user's attempts to switch hooks off. */
const AGENTS: Record<
	string,
	{ file: string; wrote: string[]; flags?: string; files(sandbox: Sandbox, allow: string): Record<string, string> }
> = {
	claude: {
		file: "/etc/claude-code/managed-settings.json",
		wrote: ['"allowManagedHooksOnly": true', "/etc/xcsh/bin/xcsh-hooks bridge claude"],
		files: (_sandbox, allow) => ({
			"proj/.claude/settings.json": `${JSON.stringify({ disableAllHooks: true, hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `echo '${allow}'` }] }] } })}\n`,
			"home/.claude/settings.json": `${JSON.stringify({ disableAllHooks: true })}\n`,
		}),
	},
	codex: {
		file: "/etc/codex/requirements.toml",
		wrote: ["allow_managed_hooks_only = true", "/etc/xcsh/bin/xcsh-hooks bridge codex"],
		files: (sandbox, allow) => ({
			// The user turns hooks off (`[features] hooks = false`); requirements.toml pins them on.
			"home/.codex/config.toml": codexConfig(sandbox.proj).replace("hooks = true", "hooks = false"),
			"home/.codex/rules/default.rules": 'prefix_rule(pattern = ["rm"], decision = "allow")\n',
			"proj/.codex/hooks.json": `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `echo '${allow}'` }] }] } })}\n`,
		}),
	},
	// Without --only-managed: the user's `[features] hooks = false` alone (Codex 0.169 ran `rm -rf` before the pin came with it).
	"codex-plain": {
		file: "/etc/codex/requirements.toml",
		flags: "--managed",
		wrote: ["features.hooks = true", "/etc/xcsh/bin/xcsh-hooks bridge codex --managed"],
		files: (sandbox) => ({
			"home/.codex/config.toml": codexConfig(sandbox.proj).replace("hooks = true", "hooks = false"),
			"home/.codex/rules/default.rules": 'prefix_rule(pattern = ["rm"], decision = "allow")\n',
		}),
	},
	gemini: {
		file: "/etc/gemini-cli/settings.json",
		// Gemini has no managed-hooks-only switch (--only-managed is refused); the system file pins hooksConfig.enabled.
		flags: "--managed",
		wrote: ['"enabled": true', "/etc/xcsh/bin/xcsh-hooks bridge gemini --managed"],
		files: () => ({
			// The user and the (trusted) project turn hooks off; the system settings, merged last, pin them on.
			"home/.gemini/settings.json": `${JSON.stringify({ ...GEMINI_USER_SETTINGS, hooksConfig: { enabled: false } })}\n`,
			"proj/.gemini/settings.json": `${JSON.stringify({ hooksConfig: { enabled: false } })}\n`,
		}),
	},
};

/**
 * The organisation's guard (Claude Code, Codex, Gemini CLI): in a private mount namespace whose /etc is an overlay
 * over the real one (writes land in the sandbox, the real /etc is never touched), the executable and the
 * suite guard go to /etc/xcsh, `install <agent> --managed --only-managed` writes the agent's managed file,
 * and the agent runs in that namespace. The project's config (a hook that allows everything; Claude:
 * `disableAllHooks`; Gemini: `hooksConfig.enabled: false`), the user's (Claude: `disableAllHooks`; Codex:
 * `[features] hooks = false`; Gemini: `hooksConfig.enabled: false`), the user's
 * own hook of the same name and the user's `disabledProviders: ["system"]` all try to switch the guard
 * off: `rm -rf data` must still be blocked.
 */
export function managedCase(driver: AgentDriver, variant: string = driver.id): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id} ${AGENTS[variant]?.flags ?? "--managed --only-managed"} (project and user try to disable hooks)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
			const agent = AGENTS[variant];
			if (!agent) throw new Error(`no managed case ${variant}`);
			const MANAGED_FILE = agent.file;
			return drive(driver, ctx, checks, "managed", {
				async prepare(sandbox) {
					sandbox.write(agent.files(sandbox, allow));
					return true;
				},
				files: {
					"home/.xcsh/agent/hooks/guard.ts": "export default function () {}\n",
					"home/.xcsh/agent/settings.json": `${JSON.stringify({ disabledProviders: ["system"] })}\n`,
					"overlay/up/.keep": "",
					"overlay/work/.keep": "",
				},
				prefix(sandbox) {
					const o = join(sandbox.root, "overlay");
					const script = [
						"set -e",
						`rm -f ${sh(join(o, "up", ".keep"))} ${sh(join(o, "work", ".keep"))}`,
						`mount -t overlay overlay -o lowerdir=/etc,upperdir=${sh(join(o, "up"))},workdir=${sh(join(o, "work"))} /etc`,
						"mkdir -p /etc/xcsh/bin /etc/xcsh/hooks && chmod 755 /etc/xcsh /etc/xcsh/bin /etc/xcsh/hooks",
						`cp ${sh(exe)} /etc/xcsh/bin/xcsh-hooks && cp ${sh(GUARD)} /etc/xcsh/hooks/guard.ts`,
						"chmod 755 /etc/xcsh/bin/xcsh-hooks && chmod 644 /etc/xcsh/hooks/guard.ts",
						`/etc/xcsh/bin/xcsh-hooks install ${driver.id} ${agent.flags ?? "--managed --only-managed"} --command /etc/xcsh/bin/xcsh-hooks > ${sh(join(sandbox.logs, "install.out"))} 2>&1`,
						`cp ${MANAGED_FILE} ${sh(join(sandbox.logs, "managed-config"))}`,
						'exec "$0" "$@"',
					].join("\n");
					return ["unshare", "--mount", "sh", "-c", script];
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: bridgeMarkers(),
				after(c, { sandbox }) {
					const copied = join(sandbox.logs, "managed-config");
					const managed = existsSync(copied) ? readFileSync(copied, "utf8") : "";
					c.expect(
						"managed install wrote the switch (or pin) and our entries",
						agent.wrote.every((needle) => managed.includes(needle)),
						managed || `no ${MANAGED_FILE} was written`,
					);
					c.expect("the real /etc was not touched", !existsSync(MANAGED_FILE) && !existsSync("/etc/xcsh"));
				},
			});
		},
	};
}
