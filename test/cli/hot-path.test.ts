/**
 * What an agent runs on every tool call, `emit` and `bridge`, loads neither citty (its parser loads
 * node:util) nor consola; every other command runs through citty, which this test sees loaded (so
 * that it can tell).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "cli", "main.ts");
const PAYLOAD = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } });

/** The citty and consola modules loaded once `main(args)` returned, and its exit code. */
async function loadedBy(args: string[], stdin = ""): Promise<{ code: number; loaded: string[] }> {
	const script = `const { main } = await import(${JSON.stringify(MAIN)});
const code = await main(${JSON.stringify(args)});
const loaded = Object.keys(require.cache).filter((k) => /node_modules\\/(citty|consola)\\//.test(k)).map((k) => k.split("node_modules/")[1]);
process.stderr.write("\\nLOADED " + JSON.stringify({ code, loaded }) + "\\n");`;
	const home = tempDir();
	const proc = Bun.spawn(["bun", "-e", script], {
		cwd: home,
		stdin: new TextEncoder().encode(stdin),
		stdout: "pipe",
		stderr: "pipe",
		env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", NO_COLOR: "1" },
	});
	const [, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	const line = stderr.split("\n").find((l) => l.startsWith("LOADED "));
	if (!line) throw new Error(`no report from main(${args.join(" ")}):\n${stderr}`);
	return JSON.parse(line.slice("LOADED ".length));
}

test("emit and bridge load neither citty nor consola; list runs through citty", async () => {
	const data = JSON.stringify({ toolName: "bash", input: { command: "ls" } });
	expect(await loadedBy(["emit", "tool_call", "--no-discovery", "--data", data])).toEqual({ code: 0, loaded: [] });
	expect(await loadedBy(["bridge", "claude", "--timeout", "20"], PAYLOAD)).toEqual({ code: 0, loaded: [] });
	const list = await loadedBy(["list"]);
	expect(list.code).toBe(0);
	expect(list.loaded.some((k) => k.startsWith("citty/"))).toBe(true);
	expect(list.loaded.some((k) => k.startsWith("consola/"))).toBe(false);
}, 60_000);
