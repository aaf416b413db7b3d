import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// End to end on a real pseudo-terminal: the default prompts (consola for confirm/select,
// node:readline for text) as a user at a terminal would drive them.
const script = (resultFile: string) => `
const { createTerminalUIContext } = await import(${JSON.stringify(`${import.meta.dir}/../../src/ui/index.ts`)});
const ui = createTerminalUIContext();
ui.setStatus("s", "status here");
const answers = {
	confirm: await ui.confirm("Proceed?", "details"),
	select: await ui.select("Pick one", ["alpha", "beta"]),
	input: await ui.input("Your name", "e.g. Ada"),
	editor: await ui.editor("Edit note", "line 1\\nline 2"),
	cancelled: (await ui.input("Cancel me")) ?? null,
};
await Bun.write(${JSON.stringify(resultFile)}, JSON.stringify(answers));
`;

test.skipIf(process.platform === "win32")(
	"prompts answer what is typed at a real terminal",
	async () => {
		const resultFile = join(mkdtempSync(join(tmpdir(), "xcsh-ui-tty-")), "answers.json");
		let screen = "";
		const decoder = new TextDecoder();
		const proc = Bun.spawn([process.execPath, "-e", script(resultFile)], {
			env: { ...process.env, NO_COLOR: "1" },
			timeout: 15_000, // a hung prompt must not outlive the test
			terminal: { cols: 80, rows: 24, data: (_term, data) => void (screen += decoder.decode(data, { stream: true })) },
		});
		const terminal = proc.terminal;
		if (!terminal) throw new Error("no pseudo-terminal");
		let seen = 0;
		// Wait until `text` shows up after what earlier steps consumed, so keys never reach the wrong prompt.
		const waitFor = async (text: string) => {
			for (let i = 0; i < 200; i++) {
				const at = screen.indexOf(text, seen);
				if (at >= 0) {
					seen = at + text.length;
					return;
				}
				await Bun.sleep(25);
			}
			throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${screen}`);
		};
		const type = async (...keys: string[]) => {
			for (const key of keys) {
				terminal.write(key);
				await Bun.sleep(30);
			}
		};

		await waitFor("status here");
		await waitFor("Proceed?");
		await waitFor("No");
		await type("y");
		await waitFor("Pick one");
		await waitFor("beta");
		await type("\x1b[B", "\r");
		await waitFor("Your name (e.g. Ada)");
		await type(..."Ada", "\r");
		await waitFor("Edit note");
		await waitFor("line 1↵line 2");
		await type("!", "\r");
		await waitFor("Cancel me");
		await type("x", "\x03");
		expect(await proc.exited).toBe(0);
		terminal.close();

		expect(await Bun.file(resultFile).json()).toEqual({
			confirm: true,
			select: "beta",
			input: "Ada",
			editor: "line 1\nline 2!",
			cancelled: null,
		});
	},
	60_000,
);
