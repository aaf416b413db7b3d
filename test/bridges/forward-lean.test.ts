/**
 * The forwarding client (src/socket/forward.ts) is every bridge call's start-up: what src/cli.ts
 * imports before it knows whether a server answers must stay small. node:fs alone costs a process
 * 1–2 ms to load, and the agent registry ≈0.3 ms to evaluate; the compiled executable gets the
 * client's agent table as a literal (scripts/build.ts), so it must still know every agent.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { clientAgents } from "../../src/socket/client-agents.ts";
import { bridgeNames } from "../../src/agent-call/index.ts";
import { findAgent } from "../../src/agents/index.ts";
import { tempDir } from "../_helpers.ts";
import { executablePath, minimalEnv, runArgv, useClis } from "../faults/_cli.ts";

const SRC = join(import.meta.dir, "..", "..", "src");
/** Replaced by a literal in the executable (scripts/build.ts): its own imports never load there. */
const INLINED = "socket/client-agents.ts";

useClis();

/** The modules `src/cli.ts` loads before its first `await`: the closure of its static imports. */
function startupGraph(): Set<string> {
	const transpiler = new Bun.Transpiler({ loader: "ts" });
	const seen = new Set<string>();
	const visit = (file: string) => {
		const key = file.startsWith("node:") || !file.startsWith("/") ? file : relative(SRC, file);
		if (seen.has(key)) return;
		seen.add(key);
		if (!file.endsWith(".ts") || key === INLINED) return;
		for (const { path, kind } of transpiler.scanImports(readFileSync(file, "utf8").replace(/^#!.*/, ""))) {
			if (kind !== "import-statement") continue;
			visit(path.startsWith(".") ? resolve(dirname(file), path) : path);
		}
	};
	visit(join(SRC, "cli.ts"));
	return seen;
}

test("a bridge call's start-up loads neither node:fs nor the agent registry", () => {
	const graph = startupGraph();
	expect(graph.has("socket/forward.ts")).toBe(true);
	expect([...graph].filter((m) => m === "fs" || m === "node:fs" || m.startsWith("fs/") || m.startsWith("node:fs/"))).toEqual([]);
	expect([...graph].filter((m) => m.startsWith("agents/"))).toEqual([]);
});

test("the client's agent table is the registry's: every bridged agent, its project variable and timeout", () => {
	const table = clientAgents();
	expect(Object.keys(table)).toEqual(bridgeNames());
	for (const name of bridgeNames()) {
		const agent = findAgent(name);
		expect(table[name]?.timeoutSeconds).toBe(agent?.timeoutSeconds as number);
		expect(table[name]?.projectVariable).toBe(agent?.projectVariable);
	}
});

const servers: Bun.Subprocess[] = [];
afterAll(() => {
	for (const server of servers) server.kill("SIGKILL");
});

test("the compiled executable forwards a call of every bridge agent to serve --socket", async () => {
	const root = tempDir("xcsh-fwd-lean-");
	const home = join(root, "home");
	const project = join(root, "project");
	mkdirSync(join(home, ".xcsh", "agent", "hooks"), { recursive: true });
	mkdirSync(project);
	writeFileSync(join(home, ".xcsh", "agent", "hooks", "quiet.ts"), "export default (pi) => pi.on('tool_call', () => undefined);\n");
	const server = Bun.spawn([executablePath(), "serve", "--socket"], {
		cwd: project,
		env: minimalEnv(home),
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
	});
	servers.push(server);
	const { value } = await server.stdout.getReader().read();
	expect(new TextDecoder().decode(value)).toContain('"ready"');
	for (const agent of bridgeNames()) {
		const run = await runArgv([executablePath(), "bridge", agent, "--event", "Unknown"], {
			cwd: project,
			home,
			stdin: JSON.stringify({ cwd: project }),
			env: minimalEnv(home, { XCSH_HOOKS_PROFILE: "1", XCSH_HOOKS_SERVER: "off" }),
			timeoutMs: 20_000,
		});
		expect({ agent, code: run.code, forwarded: run.stderr.includes('["forwarded",') }).toEqual({ agent, code: 0, forwarded: true });
	}
}, 90_000);

test("a served call's longest wait ends inside the agent's own hook timeout, with room to answer", async () => {
	const { ANSWER_GRACE_MS } = await import("../../src/socket/forward.ts");
	const { TIMEOUT_S } = await import("../../src/agents/_shared/install-spec.ts");
	// An agent that times the hook out first lets the call run (Codex, Gemini, Qwen, Droid): the client's
	// deny for a stalled server must be out at least a second before.
	const tooLong = Object.entries(clientAgents())
		.filter(([, agent]) => agent.timeoutSeconds * 1000 + ANSWER_GRACE_MS > TIMEOUT_S * 1000 - 1000)
		.map(([name]) => name);
	expect(tooLong).toEqual([]);
});
