import { join } from "node:path";
import { tempDir, writeFiles } from "../_helpers.ts";

/**
 * Source of a hook module whose behaviour carries `tag`, so a test can tell which version of the
 * file answered. It blocks `rm`, throws on `boom`, sleeps `input.slow` ms, fails `turn_start` with
 * turnIndex 13, rewrites tool results and context, answers before_agent_start, registers `/tag`
 * (which appends an entry, or throws for args "fail"), and appends a line to `shutdownLog` on
 * session_shutdown.
 */
export function hookSource(tag: string, shutdownLog: string): string {
	return `import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("tool_call", async (event) => {
		if (event.input.slow) await Bun.sleep(event.input.slow);
		if (event.input.command === "boom") throw new Error("${tag} exploded");
		if (String(event.input.command).includes("rm")) return { block: true, reason: "${tag}: no rm" };
		if (event.input.command === "quiet") return { block: true };
	});
	pi.on("tool_result", () => ({ content: [{ type: "text", text: "${tag}" }] }));
	pi.on("turn_start", async (event) => {
		await Bun.sleep(event.turnIndex === 13 ? 30 : 1);
		if (event.turnIndex === 13) throw new Error("unlucky turn");
	});
	pi.on("context", (event) => ({ messages: [...event.messages, { role: "user", content: "${tag}" }] }));
	pi.on("before_agent_start", (event) => ({ message: { customType: "${tag}", content: event.prompt.toUpperCase(), display: false } }));
	pi.on("session_shutdown", () => appendFileSync(${JSON.stringify(shutdownLog)}, "${tag}\\n"));
	pi.registerCommand("tag", {
		handler: async (args) => {
			if (args === "fail") throw new Error("asked to fail");
			pi.appendEntry("${tag}", { args });
		},
	});
}
`;
}

/** A temp project with the hook at `hook.ts`, a shutdown log path and a session file path. */
export function hookProject(tag = "v1"): { dir: string; hook: string; shutdownLog: string; session: string } {
	const dir = tempDir("xcsh-serve-");
	const shutdownLog = join(dir, "shutdown.log");
	writeFiles(dir, { "hook.ts": hookSource(tag, shutdownLog) });
	return { dir, hook: join(dir, "hook.ts"), shutdownLog, session: join(dir, "session.jsonl") };
}

/** Lines of a file, or [] when it does not exist. */
export async function fileLines(path: string): Promise<string[]> {
	const file = Bun.file(path);
	if (!(await file.exists())) return [];
	return (await file.text()).split("\n").filter(Boolean);
}

/** Polls `check` every 25 ms until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, what = "condition"): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await Bun.sleep(25);
	}
}
