/**
 * The files guard: the corpus through `createFileGuard().decide`, per category with counts, then
 * `allowPaths`, switched-off rules, bad input, and the handler through the testing harness.
 */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFileGuard } from "../../src/guards/index.ts";
import { createHookHarness } from "../../src/testing/index.ts";
import { type FileCase, FILES_ALLOW, FILES_BLOCK } from "./corpus/files.ts";

const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "files-project-")));

const CATEGORIES: Record<string, FileCase[]> = { "files: must block": FILES_BLOCK, "files: must allow": FILES_ALLOW };

for (const [name, cases] of Object.entries(CATEGORIES))
	test(`corpus: ${name}`, () => {
		const guard = createFileGuard();
		const wrong: string[] = [];
		for (const c of cases) {
			const decision = guard.decide(c.tool, c.path, { cwd: project });
			if (decision.block !== c.block)
				wrong.push(`${c.tool} ${c.path}: expected ${c.block ? "block" : "allow"}, got ${JSON.stringify(decision)}`);
			else if (c.rule && decision.rule !== c.rule) wrong.push(`${c.tool} ${c.path}: blocked by ${decision.rule}, expected ${c.rule}`);
		}
		console.log(`${name}: ${cases.length - wrong.length}/${cases.length} pass`);
		expect(wrong).toEqual([]);
	});

test("allowPaths opens a path to reads and writes; a rule switched off stays off; bad input is refused", () => {
	const relaxed = createFileGuard({ allowPaths: ["config/.env", "~/.config/app"] });
	expect(relaxed.decide("read", "config/.env", { cwd: project }).block).toBe(false);
	expect(relaxed.decide("read", ".env", { cwd: project }).block).toBe(true);
	expect(relaxed.decide("write", "~/.config/app/settings.json", { cwd: project }).block).toBe(false);
	expect(relaxed.decide("write", "~/.config/other.json", { cwd: project }).block).toBe(true);
	const noGit = createFileGuard({ disable: ["files/write-git"] });
	expect(noGit.decide("write", ".git/info/exclude", { cwd: project }).block).toBe(false);
	const guard = createFileGuard();
	expect(guard.decide("read", 42, { cwd: project })).toMatchObject({ block: true, rule: "input/no-path" });
	expect(guard.decide("read", "", { cwd: project })).toMatchObject({ block: true, rule: "input/no-path" });
	expect(guard.decide("read", "a\0b", { cwd: project })).toMatchObject({ block: true, rule: "input/nul" });
});

test("the handler guards read/write/edit through the harness, names the rule, and leaves bash alone", async () => {
	const dir = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "files-hook-")));
	mkdirSync(join(dir, "node_modules"));
	symlinkSync(join(import.meta.dir, "..", ".."), join(dir, "node_modules", "xcsh-hooks"));
	writeFileSync(
		join(dir, "files.ts"),
		`import { createFileGuard } from "xcsh-hooks/guards";\nconst files = createFileGuard();\nexport default (pi) => pi.on("tool_call", files.handler);\n`,
	);
	const h = await createHookHarness(join(dir, "files.ts"));
	const env = await h.toolCall("read", { path: ".env" });
	expect(env.blocked).toBe(true);
	expect(env.reason).toContain("[files/read-credentials]");
	expect((await h.toolCall("write", { path: "/etc/hosts", content: "x" })).reason).toContain("[files/write-outside]");
	expect((await h.toolCall("edit", { path: ".git/config", oldText: "a", newText: "b" })).reason).toContain("[files/write-git]");
	expect((await h.toolCall("read", { path: "src/app.ts" })).blocked).toBe(false);
	expect((await h.toolCall("write", { path: "src/app.ts", content: "x" })).blocked).toBe(false);
	expect((await h.toolCall("bash", { command: "cat .env" })).blocked).toBe(false);
}, 60_000);
