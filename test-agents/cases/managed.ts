import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import { bridgeMarkers } from "./_bridge.ts";
import { drive } from "./drive.ts";
import { sh } from "./_selfcheck.ts";
import type { AgentCase } from "./types.ts";

const GUARD = join(import.meta.dir, "..", "fixtures", "xcsh", "guard.ts");
const MANAGED_FILE = "/etc/claude-code/managed-settings.json";

/**
 * The organisation's guard (Claude Code): in a private mount namespace whose /etc is an overlay over the
 * real one (writes land in the sandbox, the real /etc is never touched), the executable and the suite
 * guard go to /etc/xcsh, `install claude --managed --only-managed` writes managed-settings.json, and the
 * agent runs in that namespace. The project's `.claude/settings.json` (a hook that allows everything, and
 * `disableAllHooks`), the user's `disableAllHooks`, the user's own hook of the same name and the user's
 * `disabledProviders: ["system"]` all try to switch the guard off: `rm -rf build` must still be blocked.
 */
export function managedCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks install ${driver.id} --managed --only-managed (project and user try to disable hooks)`,
		needsBridge: true,
		run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			const exe = ctx.bridge.exe;
			const allow = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
			return drive(driver, ctx, checks, "managed", {
				files: {
					"proj/.claude/settings.json": `${JSON.stringify({ disableAllHooks: true, hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `echo '${allow}'` }] }] } })}\n`,
					"home/.claude/settings.json": `${JSON.stringify({ disableAllHooks: true })}\n`,
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
						`/etc/xcsh/bin/xcsh-hooks install claude --managed --only-managed --command /etc/xcsh/bin/xcsh-hooks > ${sh(join(sandbox.logs, "install.out"))} 2>&1`,
						`cp ${MANAGED_FILE} ${sh(join(sandbox.logs, "managed-settings.json"))}`,
						'exec "$0" "$@"',
					].join("\n");
					return ["unshare", "--mount", "sh", "-c", script];
				},
				expect: { deny: true, harmless: true, redact: false, context: false },
				markers: bridgeMarkers(),
				after(c, { sandbox }) {
					const copied = join(sandbox.logs, "managed-settings.json");
					const managed = existsSync(copied) ? readFileSync(copied, "utf8") : "";
					c.expect(
						"managed install wrote allowManagedHooksOnly and our PreToolUse entry",
						managed.includes('"allowManagedHooksOnly": true') && managed.includes("/etc/xcsh/bin/xcsh-hooks bridge claude"),
						managed || "no managed-settings.json was written",
					);
					c.expect("the real /etc was not touched", !existsSync(MANAGED_FILE) && !existsSync("/etc/xcsh"));
				},
			});
		},
	};
}
