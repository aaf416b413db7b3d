/**
 * The pre-scan that clears a line without a parse: on every case of the corpus it gives the verdict
 * a full analysis gives, and a process whose lines need no parse never loads the parser.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, DEFAULT_PACKS } from "../../src/guards/index.ts";
import { CATEGORIES } from "./corpus/index.ts";

const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "prescan-")));
const ROOT = join(import.meta.dir, "..", "..");

test("on every corpus case, the pre-scan's verdict is the full analysis's", async () => {
	const guards = new Map<string, ReturnType<typeof createShellGuard>>();
	const wrong: string[] = [];
	let skipped = 0;
	for (const cases of Object.values(CATEGORIES))
		for (const c of cases) {
			const key = (c.packs ?? []).join(",");
			if (!guards.has(key)) guards.set(key, createShellGuard({ packs: [...DEFAULT_PACKS, ...(c.packs ?? [])] }));
			const guard = guards.get(key) as ReturnType<typeof createShellGuard>;
			const quick = await guard.decide(c.command, { cwd: project });
			const full = await guard.decide(c.command, { cwd: project, analyze: true });
			// The analysis's own limits (`input/too-many`) are on analysing: a line not analysed does not reach them.
			if ((quick.block !== full.block || quick.rule !== full.rule) && !full.rule?.startsWith("input/")) wrong.push(c.command);
			if (!quick.block && quick.commands.length === 0 && full.commands.length > 0) skipped++;
		}
	expect(wrong).toEqual([]);
	expect(skipped).toBeGreaterThan(50); // it does clear lines: `ls -la`, `npm test`, `cat package.json | head`…
}, 120_000);

test("a process whose lines name no judged program never loads the parser", async () => {
	const script = `
		const { createShellGuard } = await import(${JSON.stringify(join(ROOT, "src", "guards", "index.ts"))});
		const { loadedShellParser } = await import(${JSON.stringify(join(ROOT, "src", "guards", "parser.ts"))});
		const guard = createShellGuard();
		const plain = await guard.decide("ls -la && npm test | head -5", { cwd: process.cwd() });
		const before = loadedShellParser() !== undefined;
		const git = await guard.decide("git reset --hard", { cwd: process.cwd() });
		console.log(JSON.stringify({ plain: plain.block, before, git: git.rule, after: loadedShellParser() !== undefined }));`;
	const proc = Bun.spawn([process.execPath, "-e", script], {
		cwd: project,
		stdout: "pipe",
		stderr: "pipe",
		env: { ...process.env, HOME: project },
	});
	const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
	expect(code).toBe(0);
	expect(JSON.parse(out.trim())).toEqual({ plain: false, before: false, git: "git/reset-hard", after: true });
}, 60_000);
