import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver } from "../agents/types.ts";
import type { Checks } from "../checks.ts";
import { startModelServer } from "../model/server.ts";
import { runProcess } from "../process.ts";
import { createSandbox } from "../sandbox.ts";
import { projectFiles, standardSteps } from "../scenario.ts";
import { ASK_HOOK } from "./ask-cases.ts";
import { sh } from "./_selfcheck.ts";
import type { AgentCase } from "./types.ts";

const PROMPT = "clean the data folder, run a harmless command and show me deploy.conf";
const MARK = "XCSH-ASK: a person must approve";

/**
 * Claude Code prompts for an ask only in its terminal UI, so this case drives that UI in tmux (on a
 * private socket in the sandbox): the hook's ask must show up as Claude's own approval prompt with the
 * hook's reason; answering No (Esc) must leave `data/` in place, answering Yes must run the command.
 */
export function claudeTuiAskCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: "ask: Claude Code's terminal UI shows the hook's ask as its own prompt (driven in tmux): no keeps data/, yes runs it",
		needsBridge: true,
		async run(ctx, checks) {
			if (!("exe" in ctx.bridge)) throw new Error("unreachable: no bridge");
			if (
				(await runProcess(["tmux", "-V"], { cwd: "/", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, timeoutMs: 10_000 })).code !== 0
			) {
				checks.skip("the terminal UI checks", "tmux is not installed (apt-get install -y tmux)");
				return;
			}
			for (const answer of ["no", "yes"] as const) await onePrompt(driver, ctx.bridge.exe, ctx, checks, answer, "default");
			// Claude 2.1's own default, "auto mode", decides prompts itself: a hook's ask must still reach the person.
			await onePrompt(driver, ctx.bridge.exe, ctx, checks, "no", "auto");
		},
	};
}

async function onePrompt(
	driver: AgentDriver,
	exe: string,
	ctx: Parameters<AgentCase["run"]>[0],
	checks: Checks,
	answer: "no" | "yes",
	mode: "default" | "auto",
): Promise<void> {
	const sandbox = createSandbox(`claude-tui-ask-${mode}-${answer}`);
	const label = `${mode} mode, ${answer}`;
	const server = startModelServer(driver.api, standardSteps(sandbox));
	const socket = join(sandbox.root, "tmux.sock");
	const env = sandbox.env({
		ANTHROPIC_BASE_URL: server.url,
		ANTHROPIC_API_KEY: "sk-ant-test-key",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_ERROR_REPORTING: "1",
		TERM: "xterm-256color",
		CI: "",
	});
	const tmux = (...args: string[]) => runProcess(["tmux", "-S", socket, ...args], { cwd: sandbox.proj, env, timeoutMs: 15_000 });
	const screen = async () => (await tmux("capture-pane", "-p", "-t", "ask", "-S", "-200")).stdout;
	const waitFor = async (test: (text: string) => boolean, seconds: number) => {
		let text = "";
		for (let i = 0; i < seconds * 2; i++) {
			text = await screen();
			if (test(text)) return { ok: true, text };
			await Bun.sleep(500);
		}
		return { ok: false, text };
	};
	try {
		sandbox.write({ ...projectFiles(), "own-hooks/ask.ts": ASK_HOOK });
		const command = `${sh(exe)} --hook ${sh(join(sandbox.root, "own-hooks", "ask.ts"))} bridge claude`;
		driver.configure(sandbox, { pre: command, post: command, prompt: command });
		// What a first start would ask (theme, the key, trusting the folder) answered beforehand, as a returning user has.
		sandbox.write({
			"home/.claude.json": JSON.stringify({
				hasCompletedOnboarding: true,
				theme: "dark",
				customApiKeyResponses: { approved: ["sk-ant-test-key".slice(-20)], rejected: [] },
				projects: { [sandbox.proj]: { hasTrustDialogAccepted: true, allowedTools: [] } },
			}),
		});
		const started = await tmux(
			"new-session",
			"-d",
			"-s",
			"ask",
			"-x",
			"200",
			"-y",
			"50",
			"-c",
			sandbox.proj,
			ctx.bin,
			PROMPT,
			...(mode === "default" ? ["--permission-mode", "default"] : []),
			"--allowedTools",
			"Bash Read",
		);
		if (!checks.expect(`tui (${label}): tmux started Claude Code`, started.code === 0, started.stderr)) return;
		const prompt = await waitFor((text) => text.includes(MARK), 90);
		await Bun.write(join(sandbox.logs, `screen-prompt-${mode}-${answer}.txt`), prompt.text);
		checks.expect(
			`tui (${label}): Claude shows its own approval prompt with the hook's reason`,
			prompt.ok && /proceed|allow|Yes/i.test(prompt.text),
			prompt.text.slice(-1500),
		);
		if (!prompt.ok) return;
		checks.expect(`tui (${label}): nothing ran before the person answered`, existsSync(join(sandbox.proj, "data", "keep.txt")));
		if (answer === "no") await tmux("send-keys", "-t", "ask", "Escape");
		else await tmux("send-keys", "-t", "ask", "Enter");
		const after = await waitFor(
			(text) =>
				answer === "no" ? /interrupted|tell Claude|what to do|rejected|denied/i.test(text) : !existsSync(join(sandbox.proj, "data")),
			60,
		);
		await Bun.write(join(sandbox.logs, `screen-after-${mode}-${answer}.txt`), after.text);
		if (answer === "no")
			checks.expect(
				`tui (${label}): declined, \`rm -rf data\` did not run`,
				existsSync(join(sandbox.proj, "data", "keep.txt")),
				after.text.slice(-1500),
			);
		else checks.expect(`tui (${label}): approved, \`rm -rf data\` ran`, !existsSync(join(sandbox.proj, "data")), after.text.slice(-1500));
		ctx.log(`claude tui (${label}): ${after.ok ? "as expected" : "not as expected"}`);
	} finally {
		// Claude writes its state on the way out: the sandbox goes only once its process has ended.
		const pane = Number((await tmux("display-message", "-p", "-t", "ask", "#{pane_pid}")).stdout.trim());
		await tmux("kill-server");
		for (let i = 0; i < 50 && pane > 0 && alive(pane); i++) await Bun.sleep(200);
		server.stop();
		await Bun.write(join(sandbox.logs, "requests.json"), JSON.stringify(server.requests, null, 1));
		await sandbox.stopServers(checks);
		const keep = ctx.keep || !checks.ok;
		await sandbox.dispose(keep);
		if (keep) ctx.log(`kept ${sandbox.root}`);
	}
}

/** Whether a process of ours is still running. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}
