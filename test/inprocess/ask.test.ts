/** The in-process plugin (OpenCode, Kilo) cannot put a question to anyone: a hook's ask blocks, saying so (docs/ask.md). */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { startInProcess } from "../../src/inprocess/runtime.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

test("an ask is a block with the hook's reason and 'no one to ask'; other calls run", async () => {
	// A HOME of its own: the user hooks other test files leave in the shared one must not answer first.
	const saved = process.env.HOME;
	const home = tempDir();
	process.env.HOME = home;
	writeFiles(join(home, ".xcsh", "agent", "hooks"), {
		"ask.ts": `export default (pi) => pi.on("tool_call", (e) => String(e.input.command).includes("rm -rf") ? { ask: true, reason: "IN-PROCESS-ASK" } : undefined);\n`,
	});
	const handle = await startInProcess({ agent: "opencode", directory: tempDir(), watch: false, log: () => {} });
	try {
		const call = (command: string) =>
			handle.toolCall({ toolName: "bash", toolCallId: "c1", input: { command }, event: "tool.execute.before" });
		const asked = await call("rm -rf build");
		expect(asked.block).toBe(true);
		if (asked.block) expect(asked.reason).toStartWith("IN-PROCESS-ASK (a hook asks for confirmation, and there is no one to ask here");
		expect((await call("ls")).block).toBe(false);
	} finally {
		handle.close();
		process.env.HOME = saved;
	}
}, 60_000);
