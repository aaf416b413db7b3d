import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentDriver, HookCommands } from "../agents/types.ts";
import { type Checks, tail } from "../checks.ts";
import { startModelServer, type ModelServer, type SubagentScript } from "../model/server.ts";
import type { ToolStep } from "../model/types.ts";
import { runProcess } from "../process.ts";
import { createSandbox, type Sandbox } from "../sandbox.ts";
import { readLines } from "./_jsonl.ts";
import { sh } from "./_selfcheck.ts";
import type { AgentCase, CaseContext } from "./types.ts";

/*
 * Who acts and through what, in the real clients: one guard file (fixtures/xcsh-actor/guard.ts) holds
 * both rules — no MCP tool `delete_path`, no shell in a subagent — and records what it saw. Every hook
 * payload the agent sends is kept in logs/payloads.jsonl, so the shapes the bridges read are measured.
 */

const GUARD = join(import.meta.dir, "..", "fixtures", "xcsh-actor", "guard.ts");
const MCP_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "files-server.ts");
/** In the user's prompt only: a request holding it is the main agent's. */
const MAIN_MARKER = "MAIN-7c1";
/** In the task the main agent gives its subagent. */
const SUB_MARKER = "SUBTASK-4e9";
const SUB_DENY = "XCSH-SUBAGENT-GUARD";
const MCP_DENY = "XCSH-MCP-GUARD";

/** What the suite guard wrote down for one event. */
interface Seen {
	type: string;
	toolName?: string;
	agentToolName?: string;
	mcp?: { server: string; tool: string };
	subagent?: { id: string; type?: string };
	agent?: { name: string; subagent?: { id: string; type?: string; parentId?: string } };
}

/**
 * The bridge command, with the payload first appended to `logs/payloads.jsonl` (what the agent really
 * sends): one `sh -c` word, so an agent may `exec` it (Cline) or append arguments (`--event`).
 */
function tapped(sandbox: Sandbox, exe: string, agent: string): string {
	const log = sh(join(sandbox.logs, "payloads.jsonl"));
	const script = `p=$(cat); printf '%s\\n' "$p" >> ${log}; printf '%s' "$p" | ${sh(exe)} bridge ${agent} "$@"`;
	return `sh -c ${sh(script)} tap`;
}

interface ActorRun {
	sandbox: Sandbox;
	server: ModelServer;
	seen: Seen[];
	diag: string;
}

/** One run with the suite guard approved in `.xcsh/hooks/`, the agent's hooks all on the (tapped) bridge. */
async function runActor(
	driver: AgentDriver,
	ctx: CaseContext,
	checks: Checks,
	label: string,
	script: { steps: ToolStep[]; subagent?: SubagentScript; files?: Record<string, string>; prompt: string },
	check: (run: ActorRun) => void,
): Promise<void> {
	if (!("exe" in ctx.bridge) || !driver.actor) throw new Error("unreachable: no bridge or no actor support");
	const exe = ctx.bridge.exe;
	const actor = driver.actor;
	const sandbox = createSandbox(`${driver.id}-${label}`);
	const server = startModelServer(driver.api, script.steps, script.subagent);
	try {
		const seenLog = join(sandbox.logs, "seen.jsonl");
		sandbox.write({ ...script.files, "proj/.xcsh/hooks/guard.ts": readFileSync(GUARD, "utf8").replace("__SEEN_LOG__", seenLog) });
		const command = tapped(sandbox, exe, driver.id);
		const hooks: HookCommands = { pre: command, post: command, prompt: command, ...(actor.subagentEvents ? { subagent: command } : {}) };
		driver.configure(sandbox, hooks);
		actor.mcp?.(sandbox, [process.execPath, MCP_SERVER, join(sandbox.logs, "mcp.log")]);
		const approve = await runProcess([exe, "trust", "approve", join(sandbox.proj, ".xcsh", "hooks", "guard.ts")], {
			cwd: sandbox.proj,
			env: sandbox.env(),
			timeoutMs: 30_000,
		});
		if (!checks.expect("`xcsh-hooks trust approve` accepted the guard", approve.code === 0, approve.stderr.trim())) return;
		const run = actor.run
			? await actor.run(ctx.bin, sandbox, server.url, script.prompt, ctx.timeoutMs, () => server.requests.length)
			: await driver.run(ctx.bin, sandbox, server.url, script.prompt, ctx.timeoutMs);
		await Bun.write(join(sandbox.logs, "requests.json"), JSON.stringify(server.requests, null, 1));
		await Bun.write(join(sandbox.logs, "agent.out"), `${run.stdout}\n--- stderr\n${run.stderr}`);
		ctx.log(
			`${driver.id} exited ${run.code}${run.timedOut ? " (killed on timeout)" : ""} in ${(run.ms / 1000).toFixed(1)} s; ${server.main().length} main turns, ${server.sub().length} subagent turns`,
		);
		const diag = `exit ${run.code}${run.timedOut ? " (timed out)" : ""}; stderr: ${tail(run.stderr)}; stdout: ${tail(run.stdout, 200)}`;
		checks.expect("agent exited 0 within its time limit", run.code === 0 && !run.timedOut, diag);
		check({ sandbox, server, seen: readLines<Seen>(seenLog), diag });
	} finally {
		server.stop();
		await sandbox.stopServers(checks);
		const keep = ctx.keep || !checks.ok;
		await sandbox.dispose(keep);
		if (keep) ctx.log(`kept ${sandbox.root}`);
	}
}

/** The main agent starts a subagent whose `rm -rf data` the guard blocks because a subagent made it. */
export function subagentCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: driver.actor?.namesSubagent
			? `xcsh-hooks bridge ${driver.id}: a subagent's rm -rf is blocked (ctx.agent.subagent)`
			: `xcsh-hooks bridge ${driver.id}: a subagent's rm -rf reaches the hook as the main agent's (${driver.id} names no subagent)`,
		needsBridge: true,
		run(ctx, checks) {
			const actor = driver.actor;
			if (!actor?.spawn) throw new Error("unreachable: no subagent tool for this agent");
			const task = `${SUB_MARKER}: clean the data folder (run rm -rf data), then report.`;
			return runActor(
				driver,
				ctx,
				checks,
				"subagent",
				{
					prompt: `${MAIN_MARKER}: have a subagent clean the data folder`,
					steps: [actor.spawn(task), ...(actor.afterSpawn ?? [])],
					subagent: {
						marker: SUB_MARKER,
						mainMarker: MAIN_MARKER,
						steps: [{ kind: "shell", command: "rm -rf data", description: "clean" }],
					},
					files: { "proj/data/keep.txt": "must survive\n" },
				},
				({ sandbox, server, seen }) => {
					const sub = server.sub();
					checks.expect("the subagent's conversation reached the model", sub.length > 0, `main turns: ${server.main().length}`);
					const results = driver.api.toolResults(sub.at(-1)?.body);
					const bash = seen.filter((s) => s.type === "tool_call" && s.toolName === "bash");
					checks.expect("the hook saw the subagent's shell call", bash.length > 0, JSON.stringify(seen).slice(0, 800));
					if (actor.namesSubagent) {
						checks.expect(
							"the subagent's result carries the guard's reason",
							!!results[0]?.text.includes(SUB_DENY),
							`result: ${JSON.stringify(results[0])}`,
						);
						checks.expect("`rm -rf data` did not run (data/keep.txt still there)", existsSync(join(sandbox.proj, "data", "keep.txt")));
						const who = bash[0]?.agent;
						checks.expect(
							"ctx.agent names the agent and the subagent (id, type)",
							who?.name === driver.id && !!who.subagent?.id,
							JSON.stringify(who),
						);
						const spawn = seen.find((s) => s.type === "tool_call" && s.toolName !== "bash");
						checks.expect(
							"the spawning call came from the main agent (no ctx.agent.subagent)",
							!!spawn && !spawn.agent?.subagent,
							JSON.stringify(spawn),
						);
					} else {
						// What the README says: this agent does not say which subagent made a call, so a rule on
						// `ctx.agent.subagent` cannot fire; the hook still sees the call, as the main agent's.
						checks.expect(
							"ctx.agent names the agent and no subagent (the agent does not say)",
							bash[0]?.agent?.name === driver.id && !bash[0]?.agent?.subagent,
							JSON.stringify(bash[0]),
						);
						checks.expect(
							"so the subagent rule does not fire: `rm -rf data` ran (a sign to revisit if the agent starts to say)",
							!existsSync(join(sandbox.proj, "data")),
						);
					}
					const decisions = readLines<{ agent?: string; subagent?: string; decision?: string }>(
						join(sandbox.home, ".xcsh", "agent", "decisions.jsonl"),
					);
					if (actor.namesSubagent)
						checks.expect(
							"the decision log names the agent and the subagent of the blocked call",
							decisions.some((d) => d.agent === driver.id && !!d.subagent && d.subagent === bash[0]?.agent?.subagent?.id),
							JSON.stringify(decisions).slice(0, 600),
						);
					const sessions = join(sandbox.home, ".xcsh", "agent", "sessions", driver.id);
					const files = existsSync(sessions) ? readdirSync(sessions) : [];
					checks.expect("one session file for the agent and its subagent (counters do not split)", files.length <= 1, files.join(", "));
					if (actor.subagentEvents) {
						const start = seen.find((s) => s.type === "subagent_start");
						const end = seen.find((s) => s.type === "subagent_end");
						checks.expect(
							"subagent_start reached the hook with the subagent's id",
							!!start?.subagent?.id,
							JSON.stringify(seen.filter((s) => s.type !== "tool_call")),
						);
						checks.expect(
							"subagent_end reached the hook with the same id",
							!!end && end.subagent?.id === start?.subagent?.id,
							JSON.stringify(end),
						);
						if (actor.namesSubagent)
							checks.expect(
								"the subagent's tool call names the id subagent_start announced",
								bash[0]?.agent?.subagent?.id === start?.subagent?.id,
								`${JSON.stringify(bash[0]?.agent)} vs ${JSON.stringify(start)}`,
							);
					}
				},
			);
		},
	};
}

/** The model calls our MCP server's `delete_path`; the guard blocks it by `event.mcp`, whatever the agent calls the tool. */
export function mcpCase(driver: AgentDriver): AgentCase {
	return {
		agent: driver.id,
		name: `xcsh-hooks bridge ${driver.id}: MCP files/delete_path is blocked (event.mcp)`,
		needsBridge: true,
		run(ctx, checks) {
			const step: ToolStep = {
				kind: "call",
				label: "mcp__files__delete_path",
				// Claude/Codex `mcp__files__delete_path` (Codex: in namespace `mcp__files`), Gemini `mcp_files_delete_path`, Copilot `files-delete_path`.
				pick: (offered) => offered.find((name) => name.endsWith("delete_path") && name.includes("files")),
				args: () => ({ path: "victim" }),
			};
			return runActor(
				driver,
				ctx,
				checks,
				"mcp",
				{ prompt: "delete the victim folder with the files tool", steps: [step], files: { "proj/victim/keep.txt": "must survive\n" } },
				({ sandbox, server, seen }) => {
					const offered = JSON.stringify(server.main()[0]?.body ?? "").includes("delete_path");
					checks.expect("the agent offered the MCP tool to the model", offered, readMcpLog(sandbox));
					const results = driver.api.toolResults(server.main().at(-1)?.body);
					if (driver.actor?.mcpDenyEndsRun)
						checks.expect(
							"the deny ended the run: no result of delete_path reached the model",
							results.length === 0,
							JSON.stringify(results),
						);
					else
						checks.expect(
							"the model got the guard's reason for delete_path",
							!!results[0]?.text.includes(MCP_DENY),
							`result: ${JSON.stringify(results[0])}`,
						);
					checks.expect("victim/keep.txt survived", existsSync(join(sandbox.proj, "victim", "keep.txt")));
					const call = seen.find((s) => s.type === "tool_call" && s.mcp);
					checks.expect(
						"the hook saw event.mcp = {server: files, tool: delete_path} and toolName mcp__files__delete_path",
						call?.mcp?.server === "files" && call.mcp.tool === "delete_path" && call.toolName === "mcp__files__delete_path",
						JSON.stringify(seen).slice(0, 600),
					);
					const decisions = readLines<{ mcpServer?: string }>(join(sandbox.home, ".xcsh", "agent", "decisions.jsonl"));
					checks.expect(
						"the decision log names the MCP server",
						decisions.some((d) => d.mcpServer === "files"),
						JSON.stringify(decisions).slice(0, 600),
					);
					ctx.log(`${driver.id} names the MCP tool ${JSON.stringify(call?.agentToolName)}`);
				},
			);
		},
	};
}

function readMcpLog(sandbox: Sandbox): string {
	const file = join(sandbox.logs, "mcp.log");
	return existsSync(file) ? `mcp.log: ${tail(readFileSync(file, "utf8"), 300)}` : "the MCP server was never started (no mcp.log)";
}
