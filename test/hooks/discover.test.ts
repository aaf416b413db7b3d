import { beforeEach, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { discoverAndLoadHooks } from "../../src/discovery/discover.ts";
import { HookRunner } from "../../src/hooks/runner.ts";
import { HookToolWrapper } from "../../src/hooks/tool-wrapper.ts";
import type { AgentTool, HookError } from "../../src/hooks/types.ts";
import { TrustStore } from "../../src/trust/trust-store.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

let home: string;
beforeEach(() => {
	home = tempDir("xcsh-hooks-home-");
	process.env.HOME = home;
});

const echoTool = (name: string, runs: string[]): AgentTool => ({
	name,
	label: name,
	description: name,
	parameters: Type.Object({}),
	async execute(_id, params) {
		runs.push(`${name}:${JSON.stringify(params)}`);
		return { content: [{ type: "text", text: `secret=hunter2 from ${name}` }] };
	},
});

const PROJECT = {
	".xcsh/hooks/pre/bash.sh": `#!/bin/sh\ngrep -q 'rm -rf' && { echo "shell guard: no rm -rf" >&2; exit 2; }\nexit 0\n`,
	".xcsh/hooks/guard.ts": `export default (pi) => pi.on("tool_call", (e) =>
		e.toolName === "write" ? { block: true, reason: "module guard: no writes" } : undefined);`,
	".claude/hooks/post/*.sh": `#!/bin/sh\nsed -n 's/.*"text":"\\([^"]*\\)".*/\\1/p' | sed 's/hunter2/[REDACTED]/' | { read line; printf '{"content":[{"type":"text","text":"%s"}]}' "$line"; }\n`,
};

describe("discoverAndLoadHooks", () => {
	test("loads a shell pre hook, a module and a claude post hook, which behave as specified", async () => {
		const cwd = tempDir();
		writeFiles(cwd, PROJECT);
		const result = await discoverAndLoadHooks([], cwd);
		expect(result.errors).toEqual([]);
		expect(result.warnings).toEqual([]);
		expect(result.hooks.map((h) => [h.path.slice(cwd.length + 1), h.source?.provider, h.source?.level])).toEqual([
			[".xcsh/hooks/pre/bash.sh", "native", "project"],
			[".xcsh/hooks/guard.ts", "native", "project"],
			[".claude/hooks/post/*.sh", "claude", "project"],
		]);

		const runner = new HookRunner(result.hooks, cwd);
		const reported: HookError[] = [];
		runner.onError((e) => reported.push(e));
		const runs: string[] = [];
		const bash = new HookToolWrapper(echoTool("bash", runs), runner);
		const write = new HookToolWrapper(echoTool("write", runs), runner);
		const read = new HookToolWrapper(echoTool("read", runs), runner);

		await expect(bash.execute("1", { command: "rm -rf /" })).rejects.toThrow("shell guard: no rm -rf");
		await expect(write.execute("2", { path: "x" })).rejects.toThrow("module guard: no writes");
		expect(runs).toEqual([]);
		expect((await bash.execute("3", { command: "ls" })).content).toEqual([{ type: "text", text: "secret=[REDACTED] from bash" }]);
		expect((await read.execute("4", { path: "a" })).content).toEqual([{ type: "text", text: "secret=[REDACTED] from read" }]);
		expect(runs).toEqual(['bash:{"command":"ls"}', 'read:{"path":"a"}']);
		expect(reported).toEqual([]);
	}, 60_000);

	test("configured paths come after discovered ones, deduplicated by absolute path", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": `export default () => {};`, "extra/x.ts": `export default () => {};` });
		const result = await discoverAndLoadHooks(["extra/x.ts", ".xcsh/hooks/guard.ts", join(cwd, "extra/x.ts")], cwd);
		expect(result.hooks.map((h) => [h.resolvedPath.slice(cwd.length + 1), h.source?.origin])).toEqual([
			[".xcsh/hooks/guard.ts", "discovered"],
			["extra/x.ts", "configured"],
		]);
	}, 60_000);

	test("settings add hook paths and disable providers and extensions", async () => {
		const cwd = tempDir();
		writeFiles(cwd, {
			".xcsh/hooks/pre/bash.sh": "#!/bin/sh\n",
			".xcsh/hooks/pre/read.sh": "#!/bin/sh\n",
			".claude/hooks/pre/edit.sh": "#!/bin/sh\n",
			"more/m.ts": "export default () => {};",
			".xcsh/settings.json": JSON.stringify({
				hooks: ["more/m.ts"],
				disabledProviders: ["claude"],
				disabledExtensions: ["hook:pre:read:read"],
			}),
		});
		const result = await discoverAndLoadHooks([], cwd);
		expect(result.hooks.map((h) => h.resolvedPath.slice(cwd.length + 1))).toEqual([".xcsh/hooks/pre/bash.sh", "more/m.ts"]);
		expect(result.hooks[1]?.source).toEqual({ origin: "settings", level: "project" });
	}, 60_000);

	test("discovery: false loads only configured paths", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": `export default () => {};`, "x.ts": `export default () => {};` });
		const result = await discoverAndLoadHooks(["x.ts"], cwd, { discovery: false });
		expect(result.hooks.map((h) => h.path)).toEqual([join(cwd, "x.ts")]);
	}, 60_000);
});

describe("trust", () => {
	test("untrusted project hooks are skipped and reported; approved ones run; an edit untrusts again", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "guarded" }));` });
		writeFiles(home, { ".xcsh/agent/hooks/mine.ts": `export default () => {};` });
		const guard = join(cwd, ".xcsh/hooks/guard.ts");
		const store = new TrustStore();

		const first = await discoverAndLoadHooks([], cwd, { trust: store });
		expect(first.hooks.map((h) => h.source?.level)).toEqual(["user"]);
		expect(first.skipped).toEqual([
			{ path: guard, reason: "unknown", sha256: expect.any(String), approve: `xcsh-hooks trust approve ${guard}` },
		]);

		await store.approve(guard);
		const second = await discoverAndLoadHooks([], cwd, { trust: store });
		expect(second.skipped).toEqual([]);
		const runner = new HookRunner(second.hooks, cwd);
		expect(await runner.emitToolCall({ type: "tool_call", toolName: "bash", toolCallId: "1", input: {} })).toEqual({
			block: true,
			reason: "guarded",
		});

		appendFileSync(guard, "\n// edited\n");
		const third = await discoverAndLoadHooks([], cwd, { trust: store });
		expect(third.skipped.map((s) => [s.path, s.reason])).toEqual([[guard, "changed"]]);
		expect(third.hooks.map((h) => h.source?.level)).toEqual(["user"]);
	}, 60_000);

	test("paths from the project's settings need approval; --hook paths do not", async () => {
		const cwd = tempDir();
		writeFiles(cwd, {
			"a.ts": `export default () => {};`,
			"b.ts": `export default () => {};`,
			".xcsh/settings.json": JSON.stringify({ hooks: ["a.ts"] }),
		});
		const result = await discoverAndLoadHooks(["b.ts"], cwd, { trust: new TrustStore() });
		expect(result.skipped.map((s) => s.path)).toEqual([join(cwd, "a.ts")]);
		expect(result.hooks.map((h) => h.path)).toEqual([join(cwd, "b.ts")]);
	}, 60_000);
});

describe("trust: project content cannot weaken the user's hooks", () => {
	const USER_GUARD = `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "user guard" }));`;
	const toolCall = { type: "tool_call", toolName: "bash", toolCallId: "1", input: {} } as const;

	test("an unapproved project hook does not shadow the user's hook of the same name", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": `export default () => {};` });
		writeFiles(home, { ".xcsh/agent/hooks/guard.ts": USER_GUARD });
		const result = await discoverAndLoadHooks([], cwd, { trust: new TrustStore() });
		expect(result.skipped.map((s) => s.path)).toEqual([join(cwd, ".xcsh/hooks/guard.ts")]);
		expect(result.hooks.map((h) => h.resolvedPath)).toEqual([join(home, ".xcsh/agent/hooks/guard.ts")]);
		expect((await new HookRunner(result.hooks, cwd).emitToolCall(toolCall))?.reason).toBe("user guard");
	}, 60_000);

	test("a corrupt trust store runs no project hook and says why", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/evil.ts": `export default (pi) => pi.on("tool_call", () => {});` });
		writeFiles(home, { ".xcsh/agent/trust.json": "{not json" });
		const result = await discoverAndLoadHooks([], cwd, { trust: new TrustStore() });
		expect(result.hooks).toEqual([]);
		expect(result.skipped.map((s) => [s.path, s.reason])).toEqual([[join(cwd, ".xcsh/hooks/evil.ts"), "unverifiable"]]);
		expect(result.warnings.join("\n")).toContain("trust store");
	}, 60_000);

	test("the project's settings disable project hooks only, and cannot set the handler timeout", async () => {
		const cwd = tempDir();
		writeFiles(cwd, {
			".xcsh/hooks/pre/bash.sh": "#!/bin/sh\n",
			".xcsh/settings.json": JSON.stringify({ disabledProviders: ["native"], hookTimeoutMs: 1 }),
		});
		writeFiles(home, { ".xcsh/agent/hooks/guard.ts": USER_GUARD });
		const guarded = await discoverAndLoadHooks([], cwd, { trust: new TrustStore() });
		expect(guarded.hooks.map((h) => h.resolvedPath)).toEqual([join(home, ".xcsh/agent/hooks/guard.ts")]);
		expect(guarded.skipped).toEqual([]);
		expect(guarded.settings.hookTimeoutMs).toBeUndefined();
		// Without a trust store (the seed's behaviour) the merged settings apply to everything.
		const open = await discoverAndLoadHooks([], cwd);
		expect(open.hooks).toEqual([]);
		expect(open.settings.hookTimeoutMs).toBe(1);
	}, 60_000);

	test("a project's settings never name where decisions are sent, with or without a trust store", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/settings.json": JSON.stringify({ otlp: { endpoint: "http://127.0.0.1:9/theirs", fromEnvironment: true } }) });
		for (const options of [{ trust: new TrustStore() }, {}])
			expect((await discoverAndLoadHooks([], cwd, options)).settings.otlp).toBeUndefined();
		writeFiles(home, { ".xcsh/agent/settings.json": JSON.stringify({ otlp: { endpoint: "http://127.0.0.1:9/mine" } }) });
		for (const options of [{ trust: new TrustStore() }, {}])
			expect((await discoverAndLoadHooks([], cwd, options)).settings.otlp).toEqual({ endpoint: "http://127.0.0.1:9/mine" });
	}, 60_000);

	test("a discovered project file also named with --hook runs without approval", async () => {
		const cwd = tempDir();
		writeFiles(cwd, { ".xcsh/hooks/guard.ts": USER_GUARD });
		const result = await discoverAndLoadHooks([".xcsh/hooks/guard.ts"], cwd, { trust: new TrustStore() });
		expect(result.skipped).toEqual([]);
		expect(result.hooks.map((h) => [h.source?.origin, h.source?.level])).toEqual([["discovered", "user"]]);
	}, 60_000);
});
