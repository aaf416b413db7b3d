/**
 * `serve --socket` for the fault tests: a real server process of one of the CLIs on a private HOME,
 * and the agent payloads the bridge calls carry. Every server is killed by `stopServers()`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Cli, minimalEnv, ROOT } from "./_cli.ts";

const servers = new Set<Bun.Subprocess>();

/** The socket of `home` (`~/.xcsh/agent/bridge.sock`). */
export const socketOf = (home: string): string => join(home, ".xcsh", "agent", "bridge.sock");

/** Starts `serve --socket` for `home`; resolves once it printed its ready line (at most 30 s). */
export async function startSocketServer(cli: Cli, home: string, cwd: string): Promise<Bun.Subprocess<"ignore", "pipe", "pipe">> {
	const proc = Bun.spawn(cli.argv(["serve", "--socket"]), { cwd, env: minimalEnv(home), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	servers.add(proc);
	const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
	const { value } = await proc.stdout.getReader().read();
	clearTimeout(timer);
	const line = new TextDecoder().decode(value ?? new Uint8Array(0));
	if (!line.includes(`"socket":"${socketOf(home)}"`))
		throw new Error(`serve --socket did not start: ${line}${await new Response(proc.stderr).text()}`);
	return proc;
}

/** Stops every server started here (SIGTERM, then SIGKILL after 5 s). */
export async function stopServers(): Promise<void> {
	for (const proc of [...servers]) {
		servers.delete(proc);
		proc.kill("SIGTERM");
		const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
		await proc.exited;
		clearTimeout(timer);
	}
}

/** An agent's PreToolUse payload for `bash` running `command` in `project` (a real capture, `cwd` replaced). */
export function preToolUse(agent: "claude" | "codex", project: string, command: string): string {
	const file = agent === "claude" ? "PreToolUse.Bash.json" : "PreToolUse.json";
	const payload = JSON.parse(readFileSync(join(ROOT, "test", "bridges", "fixtures", agent, file), "utf8")) as Record<string, unknown>;
	return JSON.stringify({ ...payload, cwd: project, tool_input: { command, description: "t" } });
}

/** The permission decision and reason of a PreToolUse answer (Claude's and Codex's share the shape); undefined for no output. */
export function decisionOf(stdout: string): { decision: string | undefined; reason: string | undefined } | undefined {
	if (!stdout.trim()) return undefined;
	const out = (JSON.parse(stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } })
		.hookSpecificOutput;
	return { decision: out?.permissionDecision, reason: out?.permissionDecisionReason };
}
