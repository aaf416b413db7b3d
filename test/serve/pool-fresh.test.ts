/**
 * A server's pool loads one host per project and session (src/serve/http-hosts.ts). A host loaded
 * after the first imports the hooks as they are on disk then — not the module cache's copy of an
 * edit the watcher has not reported yet, which a new session kept for the server's life.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeBridge } from "../../src/agents/claude/bridge.ts";
import { answerPooled } from "../../src/serve/pooled-call.ts";
import { createHostPool } from "../../src/serve/http-hosts.ts";
import { tempDir } from "../_helpers.ts";
import { fixture } from "../bridges/_bridge.ts";

const hook = (tag: string) =>
	`export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm") ? { block: true, reason: "${tag}: no rm" } : undefined));\n`;

test("a new session's first call gets the hook as it is on disk, even before the watcher reported the edit", async () => {
	const dir = tempDir("xcsh-pool-fresh-");
	const file = join(dir, "guard.ts");
	writeFileSync(file, `export default () => {};\n`); // allows everything
	// No watcher: what the pool does is all there is (a watcher's debounce would only hide the gap).
	const pool = createHostPool({ hookPaths: [file], discovery: false, watch: false, log: () => {} });
	const ask = async (session: string) => {
		const payload = { ...fixture("claude", "PreToolUse.Bash.json", dir), session_id: session, tool_input: { command: "rm -rf build" } };
		const answer = await answerPooled(
			pool,
			{
				agent: claudeBridge,
				body: new TextEncoder().encode(JSON.stringify(payload)),
				hookPaths: [file],
				discovery: false,
				env: {},
				workingDir: dir,
			},
			false,
		);
		return answer.stdout;
	};
	try {
		expect(await ask("session-a")).toBe("");
		writeFileSync(file, hook("v2"));
		expect(await ask("session-b")).toContain("v2: no rm");
	} finally {
		pool.close();
	}
}, 60_000);
