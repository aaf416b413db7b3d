import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What a terminal shows after `output`: enough of a VT100 for the prompts (CR, LF, cursor up/down,
 * erase to the end of the screen or line; colours and cursor visibility ignored).
 */
function render(output: string, cols = 80): string[] {
	const rows: string[][] = [[]];
	let row = 0;
	let col = 0;
	const line = () => (rows[row] ??= []);
	for (let i = 0; i < output.length; i++) {
		const rest = output.slice(i);
		const csi = /^\x1b\[(\??)([0-9;]*)([A-Za-z])/.exec(rest);
		if (csi) {
			i += csi[0].length - 1;
			const n = Number.parseInt(csi[2] || "1", 10);
			if (csi[3] === "A") row = Math.max(0, row - n);
			else if (csi[3] === "B") row += n;
			else if (csi[3] === "J") {
				rows.length = row + 1;
				line().length = col;
			} else if (csi[3] === "K") line().length = col;
			else if (csi[3] === "G") col = n - 1;
			continue;
		}
		const ch = output[i] as string;
		if (ch === "\r") col = 0;
		else if (ch === "\n") {
			row++;
			line();
		} else if (ch >= " " || ch.codePointAt(0)! > 0x7f) {
			if (col >= cols) {
				row++;
				col = 0;
			}
			line()[col++] = ch;
		}
	}
	return rows.map((r) =>
		Array.from(r, (c) => c ?? " ")
			.join("")
			.trimEnd(),
	);
}

const script = (resultFile: string) => `
const { createTerminalUIContext } = await import(${JSON.stringify(`${import.meta.dir}/../../src/ui/index.ts`)});
const ui = createTerminalUIContext();
const answers = {
	select: await ui.select("Pick one", ["alpha", "beta", "gamma"]),
	confirm: await ui.confirm("Proceed?", "rm -rf build"),
	cancelled: (await ui.select("Escape me", ["a", "b"])) ?? null,
	name: await ui.input("Your name", "e.g. Ada"),
	gone: (await ui.input("Ctrl-D me")) ?? null,
};
await Bun.write(${JSON.stringify(resultFile)}, JSON.stringify(answers));
`;

test.skipIf(process.platform === "win32")(
	"select redraws in place and an answered prompt leaves one line, at a real terminal",
	async () => {
		const resultFile = join(mkdtempSync(join(tmpdir(), "xcsh-ui-redraw-")), "answers.json");
		let screen = "";
		const decoder = new TextDecoder();
		const proc = Bun.spawn([process.execPath, "-e", script(resultFile)], {
			env: { ...process.env, NO_COLOR: "1" },
			timeout: 15_000,
			terminal: { cols: 80, rows: 24, data: (_term, data) => void (screen += decoder.decode(data, { stream: true })) },
		});
		const terminal = proc.terminal;
		if (!terminal) throw new Error("no pseudo-terminal");
		const waitFor = async (text: string) => {
			for (let i = 0; i < 200; i++) {
				if (render(screen).join("\n").includes(text)) return;
				await Bun.sleep(25);
			}
			throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${render(screen).join("\n")}`);
		};
		const type = async (...keys: string[]) => {
			for (const key of keys) {
				terminal.write(key);
				await Bun.sleep(40);
			}
		};

		await waitFor("❯ alpha");
		await type("\x1b[B", "\x1b[B");
		await waitFor("❯ gamma");
		// Mid-way the menu is drawn once: one title, three choices, nothing echoed.
		const during = render(screen).filter(Boolean);
		expect(during).toEqual(["? Pick one", "  alpha", "  beta", "❯ gamma"]);
		await type("\r");
		await waitFor("? Proceed?");
		await type("y");
		await waitFor("? Escape me");
		await type("\x1b");
		// A text question leaves one line too, answered or ended with Ctrl+D.
		await waitFor("Your name (e.g. Ada)");
		await type("A", "d", "a", "\r");
		await waitFor("Ctrl-D me");
		await type("\x04");
		expect(await proc.exited).toBe(0);
		terminal.close();

		expect(render(screen).filter(Boolean)).toEqual([
			"✔ Pick one › gamma",
			"✔ Proceed? › Yes",
			"✖ Escape me",
			"✔ Your name › Ada",
			"✖ Ctrl-D me",
		]);
		expect(await Bun.file(resultFile).json()).toEqual({ select: "gamma", confirm: true, cancelled: null, name: "Ada", gone: null });
	},
	60_000,
);
