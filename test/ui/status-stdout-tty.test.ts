import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir, writeFiles } from "../_helpers.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

// At a real terminal the status line sits on the last line of stderr with the cursor at its end; a
// result printed on stdout must start on a line of its own, with the status line drawn again after it.
test.skipIf(process.platform === "win32")(
	"the status line never runs into the command's stdout at a terminal",
	async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"status.ts": `export default (pi) => pi.on("tool_call", (_e, ctx) => { ctx.ui.setStatus("s", "STATUS-LINE"); });\n`,
		});
		let screen = "";
		const decoder = new TextDecoder();
		const proc = Bun.spawn(
			["bun", CLI, "run", "bash", "--no-discovery", "--hook", join(dir, "status.ts"), "--input", '{"command":"echo RESULT-TEXT"}'],
			{
				cwd: dir,
				env: { ...process.env, HOME: tempDir("xcsh-hooks-home-"), NO_COLOR: "1" },
				timeout: 15_000,
				terminal: { cols: 80, rows: 24, data: (_term, data) => void (screen += decoder.decode(data, { stream: true })) },
			},
		);
		expect(await proc.exited).toBe(0);
		proc.terminal?.close();
		expect(screen).toContain("STATUS-LINE");
		expect(screen).toContain("RESULT-TEXT");
		expect(screen).not.toMatch(/STATUS-LINE[^\r\n]*RESULT-TEXT/); // never on the status line's row
		const before = screen.slice(0, screen.indexOf("RESULT-TEXT"));
		expect(before.endsWith("\r") || before.endsWith("\n") || before.endsWith("\x1b[2K") || before.endsWith("\x1b[K")).toBe(true);
	},
	60_000,
);
