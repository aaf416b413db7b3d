/**
 * Issue 18, item 3: `serve --socket` never runs a call's hooks twice. The client and the server agree on
 * one owner of each call: the server runs a call only once the client confirmed it still wants the
 * server to, and the client runs a call itself only when it never sent that confirmation. Real
 * processes and a real socket, a busy server (its guard burns CPU, so acknowledgements come late), and
 * the guard's own record of every run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_VERSION } from "../../src/package-version.ts";
import { runCli, useClis } from "./_cli.ts";
import { tempDir, writeFiles } from "./_fixtures.ts";
import { decisionOf, preToolUse, socketOf, startSocketServer, stopServers } from "./_socket.ts";

const clis = useClis();
afterEach(stopServers);

/** Parallel calls per CLI: enough to keep a busy server behind by seconds, few enough for a 2-core machine. */
const CALLS = 40;
/** CPU each guard run burns, synchronously (the server's event loop waits behind it, as under real load). */
const BUSY_MS = 100;

/** A user-level guard (no approval needed) that appends its command to `runs` and denies commands with "deny". */
function setup() {
	const root = tempDir("xcsh-once-");
	const home = join(root, "home");
	const project = join(root, "project");
	const runs = join(root, "runs.txt");
	writeFiles(root, {
		"project/README": "a project\n",
		"home/.xcsh/agent/hooks/count.ts": `import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		appendFileSync(${JSON.stringify(runs)}, command + "\\n");
		const until = performance.now() + ${BUSY_MS};
		while (performance.now() < until) {}
		if (command.includes("deny")) return { block: true, reason: "COUNTED " + command };
	});
}
`,
	});
	const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : []);
	return {
		home,
		project,
		runs: () => lines(runs),
		decisions: () => lines(join(home, ".xcsh", "agent", "decisions.jsonl")),
	};
}

describe("serve --socket: one owner per call", () => {
	for (const cli of clis) {
		test(`${cli.name}: ${CALLS} parallel calls on a busy server — every guard ran once, one decision line per call`, async () => {
			const s = setup();
			await startSocketServer(cli, s.home, s.project);
			const commands = Array.from({ length: CALLS }, (_, i) => (i % 2 === 0 ? `echo deny-${i}` : `echo allow-${i}`));
			const results = await Promise.all(
				commands.map((command) =>
					runCli(cli, ["bridge", "claude"], {
						cwd: s.project,
						home: s.home,
						stdin: preToolUse("claude", s.project, command),
						env: { XCSH_HOOKS_PROFILE: "1" },
						timeoutMs: 90_000,
					}),
				),
			);
			for (const [i, run] of results.entries()) {
				const command = commands[i] as string;
				expect({ command, code: run.code }).toEqual({ command, code: 0 });
				const answer = decisionOf(run.stdout);
				if (command.includes("deny"))
					expect({ command, ...answer }).toEqual({ command, decision: "deny", reason: `COUNTED ${command} [xcsh-hooks: count.ts]` });
				else expect({ command, answer }).toEqual({ command, answer: undefined });
			}
			// The server answered some of them (the rest ran on their own while it was busy)…
			expect(results.some((run) => run.stderr.includes('["forwarded",'))).toBe(true);
			// …and no call's guard ran twice: each command exactly once, one decision line per call.
			expect(s.runs().sort()).toEqual([...commands].sort());
			expect(s.decisions().length).toBe(CALLS);
		}, 120_000);

		test(`${cli.name}: a client that leaves before confirming gets nothing run by the server`, async () => {
			const s = setup();
			await startSocketServer(cli, s.home, s.project);
			const payload = new TextEncoder().encode(preToolUse("claude", s.project, "echo deny-left"));
			const line = `${JSON.stringify({ agent: "claude", version: PACKAGE_VERSION, pwd: s.project, env: {}, length: payload.length })}\n`;
			// A raw client: the request, the server's first line, then it closes without confirming.
			const first = await new Promise<string>((resolve, reject) => {
				let text = "";
				Bun.connect({
					unix: socketOf(s.home),
					socket: {
						open(socket) {
							socket.write(new Uint8Array([...new TextEncoder().encode(line), ...payload]));
						},
						data(socket, chunk) {
							text += new TextDecoder().decode(chunk);
							if (text.includes("\n")) {
								socket.end();
								resolve(text.slice(0, text.indexOf("\n")));
							}
						},
						close: () => resolve(text),
						connectError: (_socket, error) => reject(error),
					},
				}).catch(reject);
			});
			expect(first).not.toContain("refused");
			// A later call through the same server is answered; by then the left call would have run first.
			const later = await runCli(cli, ["bridge", "claude"], {
				cwd: s.project,
				home: s.home,
				stdin: preToolUse("claude", s.project, "echo deny-later"),
				env: { XCSH_HOOKS_PROFILE: "1" },
				timeoutMs: 30_000,
			});
			expect(later.stderr).toContain('["forwarded",');
			expect(decisionOf(later.stdout)).toEqual({ decision: "deny", reason: "COUNTED echo deny-later [xcsh-hooks: count.ts]" });
			expect(s.runs()).toEqual(["echo deny-later"]);
			expect(s.decisions().length).toBe(1);
		}, 60_000);
	}
});
