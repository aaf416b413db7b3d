/** Real files for the fault tests: temp dirs, private homes with settings, hook modules, markers. */
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { writeFiles } from "../_helpers.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh temp directory, realpath'd (so paths printed by the CLI compare equal). */
export function tempDir(prefix = "xcsh-faults-"): string {
	return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Writes files below `root` (the suite's shared helper; `*.sh` and `executable` get mode 755). */
export { writeFiles };

/** A private HOME, with `~/.xcsh/agent/settings.json` when `settings` is given. */
export function privateHome(settings?: Record<string, unknown>): string {
	const home = tempDir("xcsh-faults-home-");
	if (settings) writeFiles(home, { ".xcsh/agent/settings.json": JSON.stringify(settings) });
	return home;
}

/** A path where a hook or tool would leave a file if it ran; `exists()` tells whether it did. */
export function marker(dir: string, name = "MARKER"): { path: string; exists: () => boolean } {
	const path = join(dir, name);
	return { path, exists: () => existsSync(path) };
}

/** A JS statement creating `path` (for hooks that must prove they ran). */
export const touch = (path: string): string => `require("node:fs").writeFileSync(${JSON.stringify(path)}, "ran\\n");`;

/** The `tool_call` event JSON for `bash` running `command`. */
export const bashCall = (command: string): string => JSON.stringify({ toolName: "bash", input: { command } });

/** The `serve` toolCall request for `bash` running `command`. */
export const toolCallRequest = (id: unknown, command: string) => ({
	id,
	method: "toolCall",
	params: { toolName: "bash", input: { command } },
});

/** A hook module whose (synchronous) `tool_call` handler runs `body`, with `event` in scope, for calls whose command contains `touch`. */
export function guardOn(body: string): string {
	return `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (!String(event.input.command ?? "").includes("touch")) return;
		${body}
	});
}
`;
}

/** Creates a FIFO at `path` (no reader: opening it for writing or reading would block). */
export function mkfifo(path: string): void {
	const result = Bun.spawnSync(["mkfifo", path], { env: process.env });
	if (result.exitCode !== 0) throw new Error(`mkfifo ${path} failed: ${result.stderr.toString()}`);
}

/** What kind of file is at `path` (symlinks followed): "fifo", "character special file", "regular file"… */
export function fileKind(path: string): string {
	return Bun.spawnSync(["stat", "-L", "-c", "%F", path], { env: process.env }).stdout.toString().trim();
}

export const isRoot = process.getuid?.() === 0;
