import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chatApi } from "../model/chat.ts";
import { taskArgs } from "../model/types.ts";
import { runProcess } from "../process.ts";
import type { Sandbox } from "../sandbox.ts";
import type { AgentDriver } from "./types.ts";

/** Ends the `--cline-hub-daemon` processes a run left in this sandbox's project, by PID (C.3: each run leaves one). */
function endHubDaemons(sandbox: Sandbox): void {
	for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
		let argv: string[];
		try {
			argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
		} catch {
			continue;
		}
		if (!argv.includes("--cline-hub-daemon") || !argv.includes(sandbox.proj)) continue;
		try {
			process.kill(Number(pid), "SIGKILL");
		} catch {
			// already gone
		}
	}
}

const script = (command: string) => `#!/bin/sh\nexec ${command}\n`;

/** Cline CLI 3.0.65 (its compiled platform binary): `cline auth` once, then `cline --json <prompt>` (docs/agents/cline.md). */
export const clineDriver: AgentDriver = {
	id: "cline",
	pin: { pkg: "cline", version: "3.0.65", bin: "cline", path: join("@cline", "cli-linux-x64", "bin", "cline") },
	api: chatApi,
	installAlone: true,
	// No answer replaces a tool output, and UserPromptSubmit does not fire for a CLI prompt.
	cannot: { redact: false, context: false },
	configure(sandbox, hooks) {
		const dir = "proj/.clinerules/hooks";
		sandbox.write({
			[`${dir}/PreToolUse`]: script(hooks.pre),
			[`${dir}/PostToolUse`]: script(hooks.post),
			[`${dir}/UserPromptSubmit`]: script(hooks.prompt),
		});
		for (const name of ["PreToolUse", "PostToolUse", "UserPromptSubmit"]) Bun.spawnSync(["chmod", "+x", join(sandbox.root, dir, name)]);
	},
	async run(bin, sandbox, baseUrl, prompt, timeoutMs) {
		const env = sandbox.env({ CLINE_NO_AUTO_UPDATE: "1" });
		try {
			const auth = await runProcess([bin, "auth", "-p", "openai-compatible", "-k", "sk-test", "-m", "mock-model", "-b", baseUrl], {
				cwd: sandbox.cwd,
				env,
				timeoutMs: 60_000,
			});
			if (auth.code !== 0) return auth;
			return await runProcess([bin, "--json", prompt], { cwd: sandbox.cwd, env, timeoutMs });
		} finally {
			endHubDaemons(sandbox);
		}
	},
	actor: {
		spawn: (task) => ({
			kind: "call",
			label: "use_subagents",
			pick: (offered) => offered.find((n) => /subagent|spawn|task|agent/i.test(n)),
			args: (_name, schema) => taskArgs(schema, task),
		}),
		mcp: (sandbox, [command, ...args]) => {
			const settings = JSON.stringify({
				mcpServers: { files: { type: "stdio", command, args, disabled: false, autoApprove: ["delete_path"] } },
			});
			sandbox.write({ "home/.cline/data/settings/cline_mcp_settings.json": settings, "home/.cline/mcp.json": settings });
		},
		// Only a shell call has a harmless deny (a command that prints the reason); any other is `cancel`.
		mcpDenyEndsRun: true,
		namesSubagent: true,
		subagentEvents: false,
	},
	selfcheck: {
		deny: (reason) => JSON.stringify({ overrideInput: { commands: [`echo '${reason}'; exit 1`] }, contextModification: reason }),
		context: (text) => JSON.stringify({ contextModification: text }),
		redact: (response, redact) => JSON.stringify({ contextModification: redact(JSON.stringify(response ?? "")) }),
	},
};
