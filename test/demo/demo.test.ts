import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDemo } from "../../src/demo/run-demo.ts";
import { tempDir } from "../_helpers.ts";
import { runCli } from "../cli/_run.ts";

describe("demo", () => {
	test("plays the scripted session through the real hooks, tools and session file", async () => {
		const lines: string[] = [];
		const workspace = tempDir();
		const summary = await runDemo({ write: (line) => lines.push(line), workspace });
		const trace = lines.join("\n");

		expect(summary.hookErrors).toEqual([]);
		expect(summary.blocked).toEqual([
			"guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]",
			"bash refused a destructive command (rm -rf /, mkfs or a fork bomb)",
		]);
		expect(summary.allowed).toEqual(["bash", "write", "edit", "read"]);
		// The blocked delete really did not run; the write and edit really did.
		expect(existsSync(join(workspace, "data", "records.csv"))).toBe(true);
		expect(readFileSync(join(workspace, "config", "service.env"), "utf8")).toContain("API_KEY=sk-demo-4f9a1c27e8\nRETRIES=5");
		// What the model saw was redacted, and the debug message was filtered from the context.
		expect(trace).toContain("API_KEY=[REDACTED]");
		expect(trace).not.toMatch(/sees:[^▸]*sk-demo/);
		expect(trace).toContain("3 messages → 2 sent to the model");
		expect(trace).toContain("status line: ● turn 1…");
		expect(trace).toContain("status line: (cleared)");

		const entries = readFileSync(summary.sessionFile, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		expect(entries[0].type).toBe("session");
		expect(entries.filter((e) => e.type === "message").length).toBeGreaterThan(8);
		expect(entries.at(-1)).toMatchObject({
			type: "custom",
			customType: "note",
			data: { note: "demo finished: config in config/service.env" },
		});
	}, 60_000);

	test("`xcsh-hooks demo` prints the trace and exits 0 without touching the user's directory", async () => {
		const home = tempDir("xcsh-hooks-home-");
		const tmp = tempDir("xcsh-demo-tmp-");
		const run = await runCli(["demo"], { home, env: { TMPDIR: tmp } });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain("2 tool calls blocked, 4 allowed, 0 hook errors.");
		// Its temp workspace is gone, and the trace says so instead of naming paths that no longer exist.
		expect(readdirSync(tmp).filter((name) => name.startsWith("xcsh-hooks-demo-"))).toEqual([]);
		expect(run.stdout).toContain("The temp workspace is removed (pass --keep to look at its hooks and session).");
		expect(run.stdout).toContain("`xcsh-hooks init my-guard`");
		expect(existsSync(join(home, ".xcsh"))).toBe(false);
		// It ends with the same guard answering a captured Claude Code payload through the bridge, and
		// with what `install claude` would write — neither touching the user's directory.
		expect(run.stdout).toContain(
			'"permissionDecision":"deny","permissionDecisionReason":"guard blocked this command: a recursive delete (data lies outside temp dirs) [filesystem/recursive-delete]',
		);
		expect(run.stdout).toContain("would write");
		expect(run.stdout).toContain('"onFailure": "block"');
		expect(existsSync(join(home, ".claude"))).toBe(false);
	}, 60_000);

	test("--keep keeps the temp workspace; the closing line says a copied project hook needs trust approve", async () => {
		const tmp = tempDir("xcsh-demo-tmp-");
		const run = await runCli(["demo", "--keep"], { env: { TMPDIR: tmp } });
		expect(run.code).toBe(0);
		const kept = readdirSync(tmp).filter((name) => name.startsWith("xcsh-hooks-demo-"));
		expect(kept.length).toBe(1);
		expect(run.stdout).toMatch(/Session \(\d+ entries\): \/.+\.jsonl/);
		const last = run.stdout.trimEnd().split("\n").at(-1) as string;
		expect(last).toContain(`Hooks used: ${join(tmp, kept[0] as string, ".xcsh", "hooks")}`);
		expect(last).toContain("`xcsh-hooks trust approve <file>`");
	}, 60_000);

	test("refuses a workspace that already holds files, and leaves them alone", async () => {
		const workspace = tempDir();
		writeFileSync(join(workspace, "guard.ts"), "mine");
		await expect(runDemo({ write: () => {}, workspace })).rejects.toThrow("is not empty");
		expect(readFileSync(join(workspace, "guard.ts"), "utf8")).toBe("mine");
		const run = await runCli(["demo", "--workspace", workspace]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("is not empty");
	}, 60_000);
});
