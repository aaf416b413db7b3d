import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minimalEnv, runArgv, runCli, useClis } from "../faults/_cli.ts";
import { tempDir, writeFiles } from "../faults/_fixtures.ts";

/*
 * The OpenCode/Kilo plugin end to end: `install opencode|kilo` through each CLI writes the plugin
 * file (and, from the executable, the runtime it imports); a fake OpenCode host process imports that
 * file and calls the hooks as OpenCode does. Real hook files on disk, approved in a temp HOME.
 */

const FAKE_HOST = join(import.meta.dir, "_fake-opencode.ts");

const HOOKS: Record<string, string> = {
	// A value import of the library: it must resolve inside the agent with no node_modules.
	".xcsh/hooks/guard.ts": `import { createShellGuard } from "xcsh-hooks/guards";
const guard = createShellGuard({});
export default function (pi) {
	pi.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash") return;
		const decision = await guard.decide(String(event.input.command), { cwd: ctx.cwd });
		if (decision.block) return { block: true, reason: "TEST-GUARD: " + decision.reason };
	});
}
`,
	".xcsh/hooks/rewrite.ts": `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (event.toolName === "bash" && event.input.command === "echo REWRITE-ME") return { input: { command: "echo REWRITTEN" } };
		if (event.toolName === "read" && event.input.path !== "/etc/hostname") return { block: true, reason: "read mapped wrong: " + JSON.stringify(event.input) };
	});
}
`,
	".xcsh/hooks/redact.ts": `export default function (pi) {
	pi.on("tool_result", (event) => ({ content: event.content.map((b) => b.type === "text" ? { ...b, text: b.text.replace(/sk-[\\w-]+/g, "[REDACTED]") } : b) }));
}
`,
	".xcsh/hooks/context.ts": `export default function (pi) {
	pi.on("before_agent_start", (event) => ({ message: { customType: "t", content: "TEST-CONTEXT for " + event.prompt, display: false } }));
}
`,
};

async function project(cli: Parameters<typeof runCli>[0], files: Record<string, string>, agent = "opencode") {
	const home = tempDir("xcsh-inproc-home-");
	const proj = tempDir("xcsh-inproc-proj-");
	writeFiles(proj, { "build/keep.txt": "keep\n", ...files });
	const paths = Object.keys(files)
		.filter((p) => p.startsWith(".xcsh/hooks/"))
		.map((p) => join(proj, p));
	if (paths.length > 0) {
		const approved = await runCli(cli, ["trust", "approve", ...paths], { cwd: proj, home, timeoutMs: 30_000 });
		expect(approved.code).toBe(0);
	}
	const installed = await runCli(cli, ["install", agent], { cwd: proj, home, timeoutMs: 30_000 });
	expect(installed.code).toBe(0);
	const dir = agent === "kilo" ? ".kilo" : ".opencode";
	return { home, proj, plugin: join(proj, dir, "plugin", "xcsh-hooks.ts") };
}

async function host(p: { home: string; proj: string; plugin: string }, steps: string[]) {
	const run = await runArgv([process.execPath, FAKE_HOST, p.plugin, steps.join(",")], {
		cwd: p.proj,
		home: p.home,
		env: minimalEnv(p.home),
		timeoutMs: 60_000,
	});
	expect(run.code).toBe(0);
	return JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as Record<string, any>;
}

for (const cli of useClis()) {
	describe(`in-process plugin via ${cli.name}`, () => {
		test("the typed hooks run inside the host: block throws the reason, rewrite mutates args in place, output and metadata redacted, context injected", async () => {
			const p = await project(cli, HOOKS);
			const out = await host(p, ["rm", "harmless", "rewrite", "read", "after", "context"]);
			expect(out.initError).toBeUndefined();
			expect(out.factories).toBe(1);
			expect(out.rm).toEqual({ ran: false, reason: expect.stringContaining("TEST-GUARD: ") });
			expect(out.harmless).toEqual({ ran: true, args: { command: "echo hi", description: "harmless" }, sameObject: true });
			// In place: the very object OpenCode runs; the agent's own field kept.
			expect(out.rewrite).toEqual({ ran: true, args: { command: "echo REWRITTEN", description: "keep me" }, sameObject: true });
			expect(out.read.ran).toBe(true);
			expect(out.after.output).toBe("SERVICE=demo\nAPI_KEY=[REDACTED]\n");
			expect(out.after.metadata.output).toBe("SERVICE=demo\nAPI_KEY=[REDACTED]\n");
			expect(out.after.metadata).toEqual({
				output: "SERVICE=demo\nAPI_KEY=[REDACTED]\n",
				exit: 0,
				truncated: false,
				display: { lineStart: 1, lines: ["SERVICE=demo"] },
			});
			expect(JSON.stringify(out)).not.toContain("sk-live-123");
			expect(out.system).toEqual(["You are OpenCode.", "TEST-CONTEXT for hello there"]);
			expect(existsSync(join(p.proj, "build", "keep.txt"))).toBe(true);
			// Every tool call on record, as a bridge call's (the agent, its session, the verdict, the deciding hook), never the input.
			const log = readFileSync(join(p.home, ".xcsh", "agent", "decisions.jsonl"), "utf8");
			const lines = log
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line) as Record<string, unknown>);
			const guard = join(p.proj, ".xcsh", "hooks", "guard.ts");
			const rewrite = join(p.proj, ".xcsh", "hooks", "rewrite.ts");
			expect(lines.map(({ time: _t, durationMs: _d, ...rest }) => rest)).toEqual([
				{
					agent: "opencode",
					session: "ses_1",
					event: "tool.execute.before",
					tool: "bash",
					decision: "deny",
					reason: expect.stringContaining("TEST-GUARD: "),
					hook: guard,
				},
				{ agent: "opencode", session: "ses_1", event: "tool.execute.before", tool: "bash", decision: "allow" },
				{ agent: "opencode", session: "ses_1", event: "tool.execute.before", tool: "bash", decision: "rewrite", hook: rewrite },
				{ agent: "opencode", session: "ses_1", event: "tool.execute.before", tool: "read", decision: "allow" },
				{ agent: "opencode", session: "ses_1", event: "tool.execute.before", tool: "bash", decision: "allow" },
			]);
			for (const line of lines) expect(line.durationMs).toBeGreaterThanOrEqual(0);
			expect(log).not.toContain("keep me"); // a tool's input is never logged
		}, 120_000);

		test("context: a handler that returns nothing leaves OpenCode's messages as they are; drops and edits land, tool parts kept", async () => {
			const idle = await project(cli, { ".xcsh/hooks/ctx.ts": 'export default (pi) => pi.on("context", () => undefined);\n' });
			const untouched = (await host(idle, ["messages"])).messages;
			expect(untouched.sameArray).toBe(true);
			expect(untouched.messages.map((m: { info: { id: string } }) => m.info.id)).toEqual(["m1", "m2", "m3", "m4", "m5"]);
			expect(JSON.stringify(untouched.messages)).toContain("TOOL-OUT");

			const editing = await project(cli, {
				".xcsh/hooks/ctx.ts": `export default (pi) => pi.on("context", (event) => ({
	messages: event.messages
		.filter((m) => !JSON.stringify(m.content).includes("DROP-ME"))
		.map((m) => (JSON.stringify(m.content).includes("edit-me") ? { ...m, content: [{ type: "text", text: "EDITED" }] } : m)),
}));\n`,
			});
			const changed = (await host(editing, ["messages"])).messages.messages as Array<{
				info: { id: string };
				parts: Array<{ text?: string }>;
			}>;
			expect(changed.map((m) => m.info.id)).toEqual(["m1", "m2", "m3", "m5"]);
			expect(changed.at(-1)?.parts[0]?.text).toBe("EDITED");
			expect(JSON.stringify(changed)).toContain("TOOL-OUT");
			expect(JSON.stringify(changed)).toContain("READ-OUT");
		}, 120_000);

		test("a hook that fails to load blocks every tool call with a reason naming it; init never throws", async () => {
			const p = await project(cli, { ".xcsh/hooks/broken.ts": 'throw new Error("BROKEN-AT-LOAD");\nexport default function () {}\n' });
			const out = await host(p, ["rm", "harmless"]);
			expect(out.initError).toBeUndefined();
			for (const call of [out.rm, out.harmless]) {
				expect(call.ran).toBe(false);
				expect(call.reason).toContain("broken.ts");
				expect(call.reason).toContain("BROKEN-AT-LOAD");
			}
			// Both blocks on record; a user's `"decisionLog": false` writes none.
			const log = join(p.home, ".xcsh", "agent", "decisions.jsonl");
			const denied = readFileSync(log, "utf8")
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line) as { decision: string; reason: string });
			expect(denied.map((d) => [d.decision, d.reason.includes("BROKEN-AT-LOAD")])).toEqual([
				["deny", true],
				["deny", true],
			]);
			const quiet = await project(cli, { ".xcsh/hooks/broken.ts": 'throw new Error("BROKEN-AT-LOAD");\nexport default function () {}\n' });
			writeFileSync(join(quiet.home, ".xcsh", "agent", "settings.json"), '{ "decisionLog": false }\n');
			expect((await host(quiet, ["rm"])).rm.ran).toBe(false);
			expect(existsSync(join(quiet.home, ".xcsh", "agent", "decisions.jsonl"))).toBe(false);
		}, 120_000);

		test("hooks that cannot be loaded at all block every call, on record unless the user's settings say decisionLog: false", async () => {
			for (const quiet of [false, true]) {
				const p = await project(cli, { ".xcsh/hooks/guard.ts": HOOKS[".xcsh/hooks/guard.ts"] as string });
				// The session file the runtime opens is a folder: the host cannot be created.
				mkdirSync(join(p.home, ".xcsh", "agent", "sessions", "opencode.jsonl"), { recursive: true });
				if (quiet) writeFileSync(join(p.home, ".xcsh", "agent", "settings.json"), '{ "decisionLog": false }\n');
				const out = await host(p, ["rm"]);
				expect(out.rm.ran).toBe(false);
				expect(out.rm.reason).toContain("could not load hooks");
				const log = join(p.home, ".xcsh", "agent", "decisions.jsonl");
				if (quiet) expect(existsSync(log)).toBe(false);
				else expect(JSON.parse(readFileSync(log, "utf8").trim())).toMatchObject({ agent: "opencode", decision: "deny", tool: "bash" });
			}
		}, 120_000);

		test("a hook that throws, or returns an invalid result, blocks the call naming the hook", async () => {
			const p = await project(cli, {
				".xcsh/hooks/bad.ts": `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (event.input.command === "rm -rf src") throw new Error("HANDLER-THREW");
		return { blokc: true };
	});
}
`,
			});
			const out = await host(p, ["rm", "harmless"]);
			expect(out.rm.ran).toBe(false);
			expect(out.rm.reason).toContain("HANDLER-THREW");
			expect(out.harmless.ran).toBe(false);
			expect(out.harmless.reason).toContain("bad.ts");
		}, 120_000);

		test("a changed hook file is reloaded", async () => {
			const p = await project(cli, {});
			// The hook appears while the host runs, at the user level (which runs without approval).
			const userHook = join(p.home, ".xcsh", "agent", "hooks", "late.ts");
			const script = `export default function (pi) { pi.on("tool_call", () => ({ block: true, reason: "LATE-HOOK" })); }\n`;
			const running = runArgv([process.execPath, FAKE_HOST, p.plugin, ["harmless", "ready", "rmUntil60000"].join(",")], {
				cwd: p.proj,
				home: p.home,
				env: minimalEnv(p.home),
				timeoutMs: 90_000,
			});
			// Bounded polling, not a fixed sleep: the host may take long to start on a busy machine.
			const ready = join(p.proj, ".host-ready");
			for (let i = 0; i < 600 && !existsSync(ready); i++) await Bun.sleep(100);
			expect(existsSync(ready)).toBe(true);
			writeFiles(p.home, { ".xcsh/agent/hooks/late.ts": script });
			const run = await running;
			const out = JSON.parse(run.stdout.trim().split("\n").at(-1) as string);
			expect(existsSync(userHook)).toBe(true);
			expect(out.harmless.ran).toBe(true);
			expect(out.rm).toEqual({ ran: false, reason: "LATE-HOOK" });
		}, 180_000);
	});

	describe(`install/uninstall opencode|kilo via ${cli.name}`, () => {
		test("install writes one marked plugin file, is idempotent, uninstall removes exactly it; a user's file is never overwritten", async () => {
			const p = await project(cli, {}, "kilo");
			const text = readFileSync(p.plugin, "utf8");
			expect(text).toContain("`xcsh-hooks uninstall kilo` removes this file");
			expect(text).toContain("export { XcshKiloPlugin } from ");
			const again = await runCli(cli, ["install", "kilo"], { cwd: p.proj, home: p.home, timeoutMs: 30_000 });
			expect(again.code).toBe(0);
			expect(readFileSync(p.plugin, "utf8")).toBe(text);
			const mine = join(p.proj, ".kilo", "plugin", "mine.ts");
			writeFileSync(mine, "export const Mine = async () => ({});\n");
			const removed = await runCli(cli, ["uninstall", "kilo"], { cwd: p.proj, home: p.home, timeoutMs: 30_000 });
			expect(removed.code).toBe(0);
			expect(existsSync(p.plugin)).toBe(false);
			expect(existsSync(mine)).toBe(true);
			writeFileSync(p.plugin, "export const UsersOwn = async () => ({});\n");
			const refused = await runCli(cli, ["install", "kilo"], { cwd: p.proj, home: p.home, timeoutMs: 30_000 });
			expect(refused.code).not.toBe(0);
			expect(refused.stderr).toContain("not ours");
			expect(readFileSync(p.plugin, "utf8")).toBe("export const UsersOwn = async () => ({});\n");
		}, 120_000);

		test("--dry-run writes nothing: no plugin file, no runtime folder", async () => {
			const home = tempDir("xcsh-inproc-home-");
			const proj = tempDir("xcsh-inproc-proj-");
			const run = await runCli(cli, ["install", "opencode", "--dry-run"], { cwd: proj, home, timeoutMs: 30_000 });
			expect(run.code).toBe(0);
			expect(existsSync(join(proj, ".opencode"))).toBe(false);
			expect(existsSync(join(home, ".xcsh", "agent", "runtime"))).toBe(false);
		}, 60_000);
	});
}
