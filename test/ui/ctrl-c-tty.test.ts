import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { tempDir, writeFiles } from "../_helpers.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

/** Runs the CLI on a real pseudo-terminal, types Ctrl-C once `waitFor` shows up, and resolves its exit code. */
async function ctrlCAt(args: string[], waitFor: string, cwd: string): Promise<number> {
	let screen = "";
	const decoder = new TextDecoder();
	const proc = Bun.spawn(["bun", CLI, ...args], {
		cwd,
		env: { ...process.env, HOME: tempDir("xcsh-hooks-home-"), NO_COLOR: "1" },
		timeout: 15_000,
		terminal: { cols: 80, rows: 24, data: (_term, data) => void (screen += decoder.decode(data, { stream: true })) },
	});
	for (let i = 0; i < 400 && !screen.includes(waitFor); i++) await Bun.sleep(25);
	if (!screen.includes(waitFor)) throw new Error(`timed out waiting for ${JSON.stringify(waitFor)}; screen:\n${screen}`);
	proc.terminal?.write("\x03");
	const code = await proc.exited;
	proc.terminal?.close();
	return code;
}

// In the CLI, Ctrl-C at a hook's prompt ends the whole command, as it would anywhere else in a terminal:
// `run` with 130 (the tool never starts); `emit tool_call` answers it as blocked (exit 2 with the JSON),
// like every signal that would end it while a guard decides. The library's terminal UI keeps answering it
// as "cancelled" (terminal-tty.test.ts).
test.skipIf(process.platform === "win32")(
	"Ctrl-C at a hook's confirm prompt ends the command (run: 130, emit tool_call: blocked) and the tool never runs",
	async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"ask.ts": `export default (pi) => pi.on("tool_call", async (_e, ctx) => { if (!(await ctx.ui.confirm("Really run it?"))) return { block: true, reason: "declined" }; });\n`,
		});
		const hook = ["--no-discovery", "--hook", join(dir, "ask.ts")];
		expect(await ctrlCAt(["run", "bash", ...hook, "--input", '{"command":"touch ran"}'], "Really run it?", dir)).toBe(130);
		expect(existsSync(join(dir, "ran"))).toBe(false);
		expect(
			await ctrlCAt(["emit", "tool_call", ...hook, "--data", '{"toolName":"bash","input":{"command":"ls"}}'], "Really run it?", dir),
		).toBe(2);
	},
	60_000,
);
