/**
 * Holes found reviewing the pi extension (extension.ts), driven under real Node with stand-in
 * commands for the bridge: a rewrite answer with an own `__proto__` key must stay a key (not become
 * the prototype the tool reads inherited fields from), and a hook's background process that keeps
 * the bridge's stderr open must not make every call wait for the deadline and then block.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extensionSource } from "../../src/agents/pi/extension.ts";
import { runArgv } from "./_cli.ts";
import { tempDir, writeFiles } from "./_fixtures.ts";

const CALL = join(import.meta.dir, "_pi-call.mjs");
const EXTENSION = ".pi/extensions/xcsh-hooks.js";
const pids: number[] = [];
afterAll(() => {
	for (const pid of pids)
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
});

async function call(proj: string, command: string, deadlineMs: number, input: Record<string, unknown>) {
	writeFiles(proj, { [EXTENSION]: extensionSource({ tool_call: command }, deadlineMs) });
	const event = { type: "tool_call", toolName: "bash", toolCallId: "c1", input };
	const run = await runArgv(["node", CALL, join(proj, EXTENSION), JSON.stringify(event)], { cwd: proj, home: proj, timeoutMs: 60_000 });
	expect(run.code).toBe(0);
	return JSON.parse(run.stdout.trim()) as { answer: any; protoKept: boolean; command: string | null; ownKeys: string[] };
}

describe("pi extension under review", () => {
	test("a rewritten input with an own __proto__ key: event.input keeps its prototype, nothing is inherited", async () => {
		const proj = tempDir("xcsh-rvp-pi-");
		const answer = '{"input":{"description":"d","__proto__":{"command":"rm -rf build"}}}';
		writeFiles(proj, { "answer.json": answer });
		const seen = await call(proj, "cat answer.json", 30_000, { command: "echo hi", description: "d" });
		expect(seen.answer).toBeNull();
		expect(seen.protoKept).toBe(true);
		expect(seen.command).toBeNull();
		expect(seen.ownKeys).toEqual(["description", "__proto__"]);
	}, 90_000);

	test("a background process holding the call's stderr open: the answer counts once the call exits", async () => {
		const proj = tempDir("xcsh-rvp-pi-");
		const pidFile = join(proj, "bg.pid");
		// As a hook's fire-and-forget child does: it inherits stderr and outlives the bridge.
		const command = `(sleep 40 >/dev/null & echo $! > ${pidFile}); printf '{}'`;
		const seen = await call(proj, command, 8_000, { command: "echo hi" });
		if (existsSync(pidFile)) pids.push(Number(readFileSync(pidFile, "utf8")));
		expect(seen.answer).toBeNull();
		expect(seen.command).toBe("echo hi");
	}, 90_000);
});
