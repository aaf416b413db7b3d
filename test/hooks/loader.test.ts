import { describe, expect, test } from "bun:test";
import { join } from "node:path";
// The public surface: it hands the loader the package root that hooks read as `pi.pi`.
import { HookRunner, loadHooks } from "../../src/hooks-surface.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

describe("loadHooks", () => {
	test("loads hooks in path order; path as given, resolvedPath absolute", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"a.ts": `export default (pi) => pi.on("agent_start", () => {});`,
			"sub/b.js": `export default function (pi) { pi.registerCommand("b", { handler: async () => {} }); }`,
		});
		const result = await loadHooks(["sub/b.js", join(dir, "a.ts")], dir);
		expect(result.errors).toEqual([]);
		expect(result.hooks.map((h) => h.path)).toEqual(["sub/b.js", join(dir, "a.ts")]);
		expect(result.hooks.map((h) => h.resolvedPath)).toEqual([join(dir, "sub/b.js"), join(dir, "a.ts")]);
		expect(result.hooks[0]?.commands.has("b")).toBe(true);
		expect(result.hooks[1]?.handlers.get("agent_start")?.length).toBe(1);
	}, 60_000);

	test("expands ~ against HOME", async () => {
		const home = process.env.HOME as string;
		writeFiles(home, { "hooks-home/h.ts": `export default (pi) => pi.on("turn_start", () => {});` });
		const result = await loadHooks(["~/hooks-home/h.ts"], "/");
		expect(result.errors).toEqual([]);
		expect(result.hooks[0]?.path).toBe("~/hooks-home/h.ts");
		expect(result.hooks[0]?.resolvedPath).toBe(join(home, "hooks-home/h.ts"));
	}, 60_000);

	test("every failure is captured per file and never stops the others", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"good1.ts": `export default (pi) => pi.on("agent_start", () => {});`,
			"no-default.ts": `export const x = 1;`,
			"not-fn.ts": `export default { on: 1 };`,
			"syntax.ts": `export default (pi) => { pi.on("agent_start", () => { ;`,
			"throws.ts": `export default () => { throw new Error("factory exploded"); };`,
			"rejects.ts": `export default async () => { await Promise.resolve(); throw new Error("async exploded"); };`,
			"good2.ts": `export default (pi) => pi.on("agent_end", () => {});`,
		});
		const paths = ["good1.ts", "missing.ts", "no-default.ts", "not-fn.ts", "syntax.ts", "throws.ts", "rejects.ts", "good2.ts"];
		const { hooks, errors } = await loadHooks(paths, dir);
		expect(hooks.map((h) => h.path)).toEqual(["good1.ts", "good2.ts"]);
		expect(errors.map((e) => e.path)).toEqual(["missing.ts", "no-default.ts", "not-fn.ts", "syntax.ts", "throws.ts", "rejects.ts"]);
		const byPath = Object.fromEntries(errors.map((e) => [e.path, e.error]));
		for (const path of ["missing.ts", "syntax.ts", "throws.ts", "rejects.ts"])
			expect(byPath[path]?.startsWith("Failed to load hook: ")).toBe(true);
		expect(byPath["missing.ts"]).toContain(join(dir, "missing.ts"));
		// Exactly as upstream: no prefix for a default export that is not a function.
		expect(byPath["no-default.ts"]).toBe("Hook must export a default function");
		expect(byPath["not-fn.ts"]).toBe("Hook must export a default function");
		expect(byPath["throws.ts"]).toBe("Failed to load hook: factory exploded");
		expect(byPath["rejects.ts"]).toBe("Failed to load hook: async exploded");
	}, 60_000);

	test("a syntax error is reported with file:line:column", async () => {
		const dir = tempDir();
		writeFiles(dir, { "bad.ts": `export default (pi) => {\n  pi.on("tool_call", () => { ;\n};\n` });
		const { errors } = await loadHooks(["bad.ts"], dir);
		expect(errors[0]?.error).toMatch(
			new RegExp(`^Failed to load hook: ${join(dir, "bad.ts").replaceAll(".", "\\.")}:3:2: Expected "\\)" but found ";"`),
		);
	}, 60_000);

	test("an async factory is awaited before the hook counts as loaded", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"slow.ts": `export default async (pi) => {
				await new Promise((r) => setTimeout(r, 30));
				pi.on("tool_call", () => ({ block: true, reason: "registered late" }));
			};`,
		});
		const { hooks } = await loadHooks(["slow.ts"], dir);
		const runner = new HookRunner(hooks, dir);
		expect(runner.hasHandlers("tool_call")).toBe(true);
		expect(await runner.emitToolCall({ type: "tool_call", toolName: "bash", toolCallId: "1", input: {} })).toEqual({
			block: true,
			reason: "registered late",
		});
	}, 60_000);

	test("sendMessage and appendEntry throw until the runner is initialized", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"send.ts": `export default (pi) => {
				pi.on("agent_start", () => pi.sendMessage({ customType: "x", content: "hi", display: true }));
				pi.on("agent_end", () => pi.appendEntry("state", { n: 1 }));
			};`,
		});
		const { hooks } = await loadHooks(["send.ts"], dir);
		const runner = new HookRunner(hooks, dir);
		const errors: string[] = [];
		runner.onError((e) => errors.push(e.error));
		await runner.emit({ type: "agent_start" });
		await runner.emit({ type: "agent_end", messages: [] });
		expect(errors).toEqual(["sendMessage handler not initialized", "appendEntry handler not initialized"]);

		const sent: unknown[] = [];
		const entries: unknown[] = [];
		runner.initialize({
			getModel: () => undefined,
			sendMessageHandler: (message, options) => sent.push({ message, options }),
			appendEntryHandler: (customType, data) => entries.push({ customType, data }),
		});
		await runner.emit({ type: "agent_start" });
		await runner.emit({ type: "agent_end", messages: [] });
		expect(sent).toEqual([{ message: { customType: "x", content: "hi", display: true }, options: undefined }]);
		expect(entries).toEqual([{ customType: "state", data: { n: 1 } }]);
	}, 60_000);

	test("pi.exec runs in the loader's cwd, pi.typebox and pi.pi are the real modules", async () => {
		const dir = tempDir();
		writeFiles(dir, {
			"exec.ts": `export default (pi) => {
				pi.on("tool_call", async () => {
					const r = await pi.exec("pwd", []);
					const schema = pi.typebox.Type.String();
					return { block: true, reason: r.stdout.trim() + "|" + schema.type + "|" + typeof pi.pi.HookRunner };
				});
			};`,
		});
		const { hooks } = await loadHooks(["exec.ts"], dir);
		const result = await new HookRunner(hooks, "/").emitToolCall({ type: "tool_call", toolName: "x", toolCallId: "1", input: {} });
		expect(result?.reason).toBe(`${dir}|string|function`);
	}, 60_000);
});
