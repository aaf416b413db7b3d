import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createServer, type Server, type ServerOptions } from "../../src/serve/index.ts";
import { fileLines, hookProject, hookSource, waitFor } from "./_hook.ts";

type Line = { id?: unknown; method?: string; params?: any; result?: any; error?: { code: string; message: string } };

let servers: Server[] = [];
afterEach(async () => {
	await Promise.all(servers.map((s) => s.shutdown()));
	servers = [];
});

async function start(hooks: string[], extra: Partial<ServerOptions> = {}) {
	const lines: Line[] = [];
	const logs: string[] = [];
	const server = await createServer({
		watch: false,
		...extra,
		host: { cwd: process.cwd(), hookPaths: hooks, discovery: false, ...extra.host },
		write: (line) => {
			expect(line.endsWith("\n") && line.indexOf("\n") === line.length - 1).toBe(true); // one whole line per write
			lines.push(JSON.parse(line));
		},
		log: (line) => logs.push(line),
	});
	servers.push(server);
	const request = async (id: unknown, method: unknown, params?: unknown) => {
		await server.handleLine(JSON.stringify({ id, method, params }));
		return lines.find((l) => l.id === id) as Line;
	};
	return { server, lines, logs, request };
}

/**
 * Asks `toolCall` of `rm` until `reason` decides it. Polled: a reload of the old hook may come first (a
 * file written just before the server's load began).
 */
async function untilDecides(request: Awaited<ReturnType<typeof start>>["request"], reason: string): Promise<void> {
	let id = 1000;
	await waitFor(
		async () =>
			(await request(++id, "toolCall", { toolName: "bash", input: { command: "rm" } })).result.reason === reason ? true : undefined,
		10_000,
		`${reason} to decide`,
	);
}

describe("createServer", () => {
	test("announces the loaded hooks, then answers every method with the runner's semantics", async () => {
		const p = hookProject();
		const { lines, request } = await start([p.hook], { host: { sessionFile: p.session } as ServerOptions["host"] });
		expect(lines[0]).toEqual({ method: "ready", params: { hooks: [p.hook], loadErrors: [], skipped: [], warnings: [] } });

		const emitted = await request(1, "emit", {
			type: "tool_result",
			toolName: "bash",
			input: {},
			content: [],
			details: null,
			isError: false,
		});
		expect(emitted.result).toEqual({ result: { content: [{ type: "text", text: "v1" }] }, errors: [], loadErrors: [] });
		expect((await request(2, "toolCall", { toolName: "bash", input: { command: "rm -rf /" } })).result).toEqual({
			block: true,
			reason: "v1: no rm",
		});
		expect((await request(3, "toolCall", { toolName: "bash", toolCallId: "c1", input: { command: "ls" } })).result).toEqual({
			block: false,
		});
		// Fail closed: a throwing handler blocks with its message; a bare {block: true} gets the default reason.
		expect((await request(4, "toolCall", { toolName: "bash", input: { command: "boom" } })).result).toEqual({
			block: true,
			reason: "v1 exploded",
		});
		expect((await request(5, "toolCall", { toolName: "bash", input: { command: "quiet" } })).result).toEqual({
			block: true,
			reason: "Tool execution was blocked by a hook",
		});
		expect((await request(6, "context", { messages: [{ role: "user", content: "hi" }] })).result).toEqual({
			messages: [
				{ role: "user", content: "hi" },
				{ role: "user", content: "v1" },
			],
			errors: [],
		});
		expect((await request(7, "beforeAgentStart", { prompt: "go" })).result).toEqual({
			message: { customType: "v1", content: "GO", display: false },
			errors: [],
		});
		expect((await request(8, "command", { name: "/tag", args: "a b" })).result).toEqual({ ok: true, errors: [] });
		expect(await fileLines(p.session)).toContainEqual(expect.stringContaining('"customType":"v1"'));
		expect((await request(9, "command", { name: "tag", args: "fail" })).error).toEqual({
			code: "handler_error",
			message: "/tag failed: asked to fail",
		});
		expect((await request(10, "command", { name: "nope" })).error).toEqual({
			code: "command_not_found",
			message: "no hook registers /nope; registered: /tag",
		});
	}, 60_000);

	test("a bad line gets an error response and the server keeps answering", async () => {
		const p = hookProject();
		const { server, lines, request } = await start([p.hook]);
		await server.handleLine("{not json");
		await server.handleLine("[1, 2]");
		await server.handleLine(JSON.stringify({ method: "emit" }));
		await server.handleLine("   ");
		expect(lines.slice(1).map((l) => [l.id, l.error?.code])).toEqual([
			[null, "parse_error"],
			[null, "invalid_request"],
			[null, "invalid_request"],
		]);
		expect(lines[3]?.error?.message).toContain("id must be a string or a number");
		expect((await request("m", 42)).error).toEqual({ code: "invalid_request", message: "method must be a string, got 42" });
		expect((await request("u", "explode")).error?.code).toBe("method_not_found");
		expect((await request("u", "explode")).error?.message).toContain("toolCall");
		expect((await request("ok", "toolCall", { toolName: "bash", input: {} })).result).toEqual({ block: false });
	}, 60_000);

	test("invalid params are answered with the field at fault", async () => {
		const { request } = await start([hookProject().hook]);
		const message = async (id: string, method: string, params?: unknown) => {
			const line = await request(id, method, params);
			expect(line.error?.code).toBe("invalid_params");
			return line.error?.message;
		};
		expect(await message("a", "toolCall", { input: {} })).toStartWith("params.toolName: expected string");
		expect(await message("b", "toolCall", { toolName: "bash", input: "ls" })).toStartWith("params.input:");
		expect(await message("c", "toolCall")).toBe("params must be a JSON object {toolName, toolCallId?, input}, got nothing");
		expect(await message("d", "emit", { type: "turn_start", turnIndex: "x", timestamp: 1 })).toStartWith(
			"params.turnIndex: expected integer",
		);
		expect(await message("e", "emit", { type: "no_such_event" })).toStartWith('unknown event type "no_such_event"');
		expect(await message("f", "emit", {})).toStartWith("params.type is missing");
		expect(await message("g", "context", { messages: [{ role: "robot" }] })).toStartWith("params.messages[0]");
		expect(await message("h", "beforeAgentStart", {})).toStartWith("params.prompt: expected string");
		expect(await message("i", "command", { name: "tag", args: ["x"] })).toStartWith("params.args:");
	}, 60_000);

	test("concurrent requests are answered by id, each with only its own handler errors", async () => {
		const { server, lines } = await start([hookProject().hook]);
		const turn = (id: number, turnIndex: number) =>
			JSON.stringify({ id, method: "emit", params: { type: "turn_start", turnIndex, timestamp: 0 } });
		await Promise.all([
			server.handleLine(
				JSON.stringify({ id: "slow", method: "toolCall", params: { toolName: "bash", input: { slow: 80, command: "rm x" } } }),
			),
			server.handleLine(turn(13, 13)),
			server.handleLine(turn(1, 1)),
			server.handleLine(JSON.stringify({ id: "fast", method: "toolCall", params: { toolName: "bash", input: { command: "ls" } } })),
		]);
		const order = lines.slice(1).map((l) => l.id);
		expect(order.indexOf("fast")).toBeLessThan(order.indexOf("slow"));
		expect(order.indexOf(1)).toBeLessThan(order.indexOf(13));
		const byId = new Map(lines.map((l) => [l.id, l.result]));
		expect(byId.get("slow")).toEqual({ block: true, reason: "v1: no rm" });
		expect(byId.get("fast")).toEqual({ block: false });
		expect(byId.get(1).errors).toEqual([]);
		expect(byId.get(13).errors).toMatchObject([{ event: "turn_start", error: "unlucky turn" }]);
	}, 60_000);

	test("a hook that fails to load blocks tool calls unless load errors are allowed", async () => {
		const missing = join(hookProject().dir, "missing.ts");
		const strict = await start([missing]);
		const blocked = await strict.request(1, "toolCall", { toolName: "bash", input: {} });
		expect(blocked.result.block).toBe(true);
		expect(blocked.result.reason).toContain("a hook failed to load");
		expect((await strict.request(2, "emit", { type: "agent_start" })).result.loadErrors).toMatchObject([{ path: missing }]);
		const lenient = await start([missing], { allowLoadErrors: true });
		expect((await lenient.request(1, "toolCall", { toolName: "bash", input: {} })).result).toEqual({ block: false });
	}, 60_000);

	test("reload imports edited hooks afresh; a request already running finishes on the old ones", async () => {
		const p = hookProject("v1");
		const { server, lines, request } = await start([p.hook], { host: { sessionFile: p.session } as ServerOptions["host"] });
		const slow = server.handleLine(
			JSON.stringify({ id: "old", method: "toolCall", params: { toolName: "bash", input: { slow: 150, command: "rm" } } }),
		);
		await Bun.sleep(20);
		writeFileSync(p.hook, hookSource("v2", p.shutdownLog));
		expect((await request("r", "reload")).result).toEqual({ hooks: [p.hook], loadErrors: [] });
		expect((await request("new", "toolCall", { toolName: "bash", input: { command: "rm" } })).result.reason).toBe("v2: no rm");
		await slow;
		expect(lines.find((l) => l.id === "old")?.result.reason).toBe("v1: no rm");
		// The session carries over: the reloaded hook appends to the same file.
		expect((await request("cmd", "command", { name: "tag" })).result.ok).toBe(true);
		expect(await fileLines(p.session)).toContainEqual(expect.stringContaining('"customType":"v2"'));

		writeFileSync(p.hook, "export default 42;");
		expect((await request("bad", "reload")).result.loadErrors).toMatchObject([
			{ path: p.hook, error: expect.stringContaining("default function") },
		]);
	}, 60_000);

	test("watching: an edited hook file reloads by itself and a `reloaded` notification follows", async () => {
		const p = hookProject("v1");
		const { lines, request } = await start([p.hook], { watch: true, debounceMs: 30 });
		await Bun.sleep(50);
		writeFileSync(p.hook, hookSource("v2", p.shutdownLog));
		await untilDecides(request, "v2: no rm");
		const note = lines.find((l) => l.method === "reloaded");
		expect(note?.params).toEqual({ hooks: [p.hook], loadErrors: [] });
	}, 60_000);

	test("watching: a hook that is a link to a file elsewhere (a dotfiles manager's) reloads when that file is edited", async () => {
		const p = hookProject("v1");
		const hooks = join(p.dir, "hooks");
		mkdirSync(hooks);
		const link = join(hooks, "guard.ts");
		symlinkSync(p.hook, link);
		const { request } = await start([link], { watch: true, debounceMs: 30 });
		expect((await request(0, "toolCall", { toolName: "bash", input: { command: "rm" } })).result.reason).toBe("v1: no rm");
		await Bun.sleep(50);
		writeFileSync(p.hook, hookSource("v2", p.shutdownLog));
		await untilDecides(request, "v2: no rm");
	}, 60_000);

	test("watching: a hook dropped into a discovery folder that did not exist yet is picked up", async () => {
		const home = process.env.HOME as string;
		const p = hookProject();
		const { lines } = await start([], {
			watch: true,
			debounceMs: 30,
			host: { cwd: p.dir, hookPaths: [], discovery: true, sessionFile: p.session },
		});
		expect(lines[0]?.params.hooks).toEqual([]);
		await Bun.sleep(50);
		const late = join(home, ".xcsh", "agent", "hooks", "late.ts");
		mkdirSync(dirname(late), { recursive: true });
		writeFileSync(late, hookSource("late", p.shutdownLog));
		const note = await waitFor(() => lines.find((l) => l.method === "reloaded" && l.params.hooks.length > 0), 10_000, "the new hook");
		expect(note.params.hooks).toEqual([late]);
	}, 60_000);

	test("shutdown waits for running requests, emits session_shutdown once and refuses new requests", async () => {
		const p = hookProject();
		const { server, lines, request } = await start([p.hook]);
		const slow = server.handleLine(JSON.stringify({ id: "slow", method: "toolCall", params: { toolName: "bash", input: { slow: 100 } } }));
		await Promise.all([server.shutdown(), server.shutdown()]);
		expect(lines.find((l) => l.id === "slow")?.result).toEqual({ block: false });
		await slow;
		expect(await fileLines(p.shutdownLog)).toEqual(["v1"]);
		expect((await request("late", "toolCall", { toolName: "bash", input: {} })).error?.code).toBe("shutting_down");
		await server.shutdown();
		expect(await fileLines(p.shutdownLog)).toEqual(["v1"]);
	}, 60_000);

	test("a client that emits session_shutdown itself does not get a second one", async () => {
		const p = hookProject();
		const { server, request } = await start([p.hook]);
		expect((await request(1, "emit", { type: "session_shutdown" })).result).toEqual({ result: null, errors: [], loadErrors: [] });
		await server.shutdown();
		expect(await fileLines(p.shutdownLog)).toEqual(["v1"]);
	}, 60_000);
});
