import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../_helpers.ts";
import { fileLines, hookProject, hookSource, waitFor } from "./_hook.ts";

const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");
type Line = { id?: unknown; method?: string; params?: any; result?: any; error?: { code: string; message: string } };

/** `xcsh-hooks serve` as a real process: stdout parsed line by line as it arrives. */
function serve(args: string[]) {
	const home = tempDir("xcsh-serve-home-");
	const proc = Bun.spawn(["bun", CLI, "serve", "--no-discovery", ...args], {
		stdin: "pipe",
		stdout: "pipe",
		stderr: "pipe",
		env: { ...process.env, HOME: home, USERPROFILE: home },
	});
	const lines: Line[] = [];
	let raw = "";
	const pump = (async () => {
		const decoder = new TextDecoder();
		for await (const chunk of proc.stdout) {
			raw += decoder.decode(chunk, { stream: true });
			const parts = raw.split("\n");
			raw = parts.pop() ?? "";
			for (const part of parts) lines.push(JSON.parse(part)); // throws (fails the test) on a torn line
		}
	})();
	const send = (...requests: (object | string)[]) => {
		proc.stdin.write(`${requests.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`);
		proc.stdin.flush();
	};
	const response = (id: unknown, timeoutMs = 15_000) =>
		waitFor(() => lines.find((l) => l.id === id), timeoutMs, `response ${JSON.stringify(id)}`);
	return { proc, lines, send, response, pump, stderr: () => new Response(proc.stderr).text() };
}

describe("xcsh-hooks serve (subprocess)", () => {
	test("answers every method, bad lines and unknown methods, concurrently and by id", async () => {
		const p = hookProject();
		const s = serve(["--hook", p.hook, "--session", p.session, "--no-watch"]);
		await waitFor(() => s.lines.find((l) => l.method === "ready"), 15_000, "ready");
		s.send(
			{ id: "slow", method: "toolCall", params: { toolName: "bash", input: { command: "rm -rf /", slow: 300 } } },
			"this is not json",
			{ id: 1, method: "emit", params: { type: "turn_start", turnIndex: 13, timestamp: 0 } },
			{ id: 2, method: "toolCall", params: { toolName: "bash", input: { command: "ls" } } },
			{ id: 3, method: "toolCall", params: { input: {} } },
			{ id: 4, method: "context", params: { messages: [] } },
			{ id: 5, method: "beforeAgentStart", params: { prompt: "hi" } },
			{ id: 6, method: "command", params: { name: "tag", args: "x" } },
			{ id: 7, method: "reload" },
			{ id: 8, method: "frobnicate" },
		);
		expect((await s.response("slow")).result).toEqual({ block: true, reason: "v1: no rm" });
		const ids = s.lines.filter((l) => "id" in l).map((l) => l.id);
		expect(ids.at(-1)).toBe("slow"); // answered last although sent first
		expect(s.lines.find((l) => l.id === null)?.error?.code).toBe("parse_error");
		expect((await s.response(1)).result.errors).toMatchObject([{ event: "turn_start", error: "unlucky turn" }]);
		expect((await s.response(2)).result).toEqual({ block: false });
		expect((await s.response(3)).error).toMatchObject({ code: "invalid_params", message: expect.stringContaining("params.toolName") });
		expect((await s.response(4)).result).toEqual({ messages: [{ role: "user", content: "v1" }], errors: [] });
		expect((await s.response(5)).result.message).toEqual({ customType: "v1", content: "HI", display: false });
		expect((await s.response(6)).result).toEqual({ ok: true, errors: [] });
		expect((await s.response(7)).result).toEqual({ hooks: [p.hook], loadErrors: [] });
		expect((await s.response(8)).error?.code).toBe("method_not_found");
		s.proc.stdin.end();
		expect(await s.proc.exited).toBe(0);
		expect(await fileLines(p.session)).toContainEqual(expect.stringContaining('"customType":"v1"'));
	}, 60_000);

	test("reloads an edited hook by itself and says so; an explicit reload works too", async () => {
		const p = hookProject("v1");
		const s = serve(["--hook", p.hook]);
		await waitFor(() => s.lines.find((l) => l.method === "ready"), 15_000, "ready");
		writeFileSync(p.hook, hookSource("v2", p.shutdownLog));
		const note = await waitFor(() => s.lines.find((l) => l.method === "reloaded"), 20_000, "the reloaded notification");
		expect(note.params).toEqual({ hooks: [p.hook], loadErrors: [] });
		s.send({ id: 1, method: "toolCall", params: { toolName: "bash", input: { command: "rm" } } });
		expect((await s.response(1)).result.reason).toBe("v2: no rm");

		writeFileSync(p.hook, hookSource("v3", p.shutdownLog));
		s.send({ id: 2, method: "reload" }, { id: 3, method: "toolCall", params: { toolName: "bash", input: { command: "rm" } } });
		expect((await s.response(2)).result.hooks).toEqual([p.hook]);
		expect((await s.response(3)).result.reason).toBe("v3: no rm"); // read after the reload, so served by it
		s.proc.kill("SIGTERM");
		expect(await s.proc.exited).toBe(0);
	}, 60_000);

	for (const how of ["stdin EOF", "SIGTERM"] as const) {
		test(`${how}: the in-flight request is answered, session_shutdown runs once, exit 0`, async () => {
			const p = hookProject();
			const s = serve(["--hook", p.hook, "--no-watch"]);
			await waitFor(() => s.lines.find((l) => l.method === "ready"), 15_000, "ready");
			s.send({ id: "slow", method: "toolCall", params: { toolName: "bash", input: { command: "ls", slow: 400 } } });
			await Bun.sleep(50); // let the server read it before the end arrives
			if (how === "stdin EOF") s.proc.stdin.end();
			else s.proc.kill("SIGTERM");
			expect(await s.proc.exited).toBe(0);
			await s.pump;
			expect(s.lines.find((l) => l.id === "slow")?.result).toEqual({ block: false });
			expect(await fileLines(p.shutdownLog)).toEqual(["v1"]);
			expect(await s.stderr()).toBe("");
		}, 60_000);
	}

	test("--help documents the protocol", async () => {
		const proc = Bun.spawn(["bun", CLI, "serve", "--help"], { stdout: "pipe", env: { ...process.env, NO_COLOR: "1" } });
		const help = await new Response(proc.stdout).text();
		expect(await proc.exited).toBe(0);
		for (const word of [
			"toolCall",
			"beforeAgentStart",
			"reload",
			"reloaded",
			"parse_error",
			"--no-watch",
			"--allow-load-errors",
			"session_shutdown",
		])
			expect(help).toContain(word);
	}, 60_000);
});
