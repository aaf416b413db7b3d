/**
 * Issue 18, item 7: `install` and `uninstall` touch only what they wrote, byte for byte. A user's own
 * entry whose command merely ends in `bridge claude` stays the user's (kept by install, kept by
 * uninstall, and run by the agent config providers); the user's file is edited as text, so numbers,
 * layout, CRLF and a BOM survive, and `uninstall` after `install` gives back the original bytes; a
 * file and folders install created go again, nothing that was there before. Through both CLIs, with
 * a temporary HOME.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Cli, runCli, useClis } from "./_cli.ts";
import { expectCleanFailure } from "./_expect.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const TIMEOUT_MS = 60_000;
const MARKER = "--installed-by=xcsh-hooks";

const USER_AUDIT = {
	matcher: "Bash",
	hooks: [{ type: "command", command: "/usr/local/bin/my-audit --mode bridge claude", timeout: 5 }],
};

/** A project holding `text` at `path`. */
function project(path: string, text: string): { dir: string; file: string } {
	const dir = tempDir("xcsh-faults-install-");
	const file = join(dir, path);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, text);
	return { dir, file };
}

async function ok(cli: Cli, args: string[], cwd: string, home: string): Promise<string> {
	const run = await runCli(cli, args, { cwd, home, timeoutMs: 20_000 });
	if (run.code !== 0) throw new Error(`${args.join(" ")}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
	return run.stdout;
}

const parse = (text: string) => JSON.parse(text.replace(/^\uFEFF/, ""));

/** Files as users write them: the numbers JSON.stringify would rewrite, each layout, CRLF, a BOM. */
const FILES: Record<string, { agent: string; path: string; text: string }> = {
	"a compact Claude file with big and precise numbers": {
		agent: "claude",
		path: ".claude/settings.json",
		text: `{"model":"opus","n":12345678901234567890123,"huge":1e400,"ratio":1.0,"hooks":{"PreToolUse":[${JSON.stringify(USER_AUDIT)}]}}`,
	},
	"a 4-space Codex file with an inline array": {
		agent: "codex",
		path: ".codex/hooks.json",
		text: '{\n    "hooks": {\n        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 check.py"}]}]\n    },\n    "x": 1.50\n}\n',
	},
	"a tab-indented CRLF Gemini file with control keys": {
		agent: "gemini",
		path: ".gemini/settings.json",
		text: '{\r\n\t"general": {"vimMode": true},\r\n\t"hooks": {\r\n\t\t"enabled": true,\r\n\t\t"disabled": []\r\n\t}\r\n}\r\n',
	},
	"a Cursor file with a BOM and no final newline": {
		agent: "cursor",
		path: ".cursor/hooks.json",
		text: '\uFEFF{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [ { "command": "./format.sh" } ]\n  }\n}',
	},
	"a Copilot file with no hooks key": {
		agent: "copilot",
		path: ".github/hooks/xcsh-hooks.json",
		text: '{ "version" : 1 , "note" : "kept, 1.0" }\n',
	},
	"an existing `{}`": { agent: "claude", path: ".claude/settings.json", text: "{}" },
};

function cells(cli: Cli): void {
	test(
		"a user's entry that merely ends in `bridge claude` is theirs: install keeps it and its matcher, uninstall keeps it",
		async () => {
			const original = `${JSON.stringify({ hooks: { PreToolUse: [USER_AUDIT] } }, null, 2)}\n`;
			const { dir, file } = project(".claude/settings.json", original);
			const home = privateHome();
			expect(await ok(cli, ["uninstall", "claude"], dir, home)).toContain("has no xcsh-hooks entries; nothing changed");
			expect(readFileSync(file, "utf8")).toBe(original);

			const out = await ok(cli, ["install", "claude"], dir, home);
			expect(out).toContain("+ add PreToolUse (matcher *)");
			expect(out).not.toContain("~ update");
			const installed = parse(readFileSync(file, "utf8"));
			expect(installed.hooks.PreToolUse).toHaveLength(2);
			expect(installed.hooks.PreToolUse[0]).toEqual(USER_AUDIT);
			expect(installed.hooks.PreToolUse[1].matcher).toBe("*");
			expect(installed.hooks.PreToolUse[1].hooks[0].command).toEndWith(` bridge claude ${MARKER}`);
			expect(await ok(cli, ["install", "claude"], dir, home)).toContain("nothing changed");

			const removed = await ok(cli, ["uninstall", "claude"], dir, home);
			expect(removed).not.toContain("my-audit");
			expect(readFileSync(file, "utf8")).toBe(original);
		},
		TIMEOUT_MS,
	);

	describe("install edits the text; uninstall gives back the original bytes", () => {
		for (const [name, { agent, path, text }] of Object.entries(FILES))
			test(
				name,
				async () => {
					const { dir, file } = project(path, text);
					const home = privateHome();
					await ok(cli, ["install", agent], dir, home);
					const installed = readFileSync(file, "utf8");
					// Every byte of the original is still there, in order: only our entries were inserted.
					let at = 0;
					for (const ch of text) {
						const next = installed.indexOf(ch, at);
						expect(next).toBeGreaterThanOrEqual(0);
						at = next + ch.length;
					}
					for (const literal of ["12345678901234567890123", "1e400", "1.0", "1.50"])
						if (text.includes(literal)) expect(installed).toContain(literal);
					expect(installed.startsWith("\uFEFF")).toBe(text.startsWith("\uFEFF"));
					if (!text.includes("\n") && text !== "{}") expect(installed.includes("\n")).toBe(false); // compact stays compact
					if (text.includes("\r\n")) expect(installed.replaceAll("\r\n", "")).not.toContain("\n");
					expect(Object.keys(parse(installed).hooks).length).toBeGreaterThan(0);
					expect(await ok(cli, ["install", agent], dir, home)).toContain("nothing changed");
					expect(readFileSync(file, "utf8")).toBe(installed);

					const dry = await runCli(cli, ["uninstall", agent, "--dry-run"], { cwd: dir, home, timeoutMs: 20_000 });
					expect(dry.code).toBe(0);
					expect(dry.stdout).toBe(text.replace(/^\uFEFF/, "")); // the test's TextDecoder drops a BOM
					expect(readFileSync(file, "utf8")).toBe(installed);
					await ok(cli, ["uninstall", agent], dir, home);
					expect(readFileSync(file, "utf8")).toBe(text);
				},
				TIMEOUT_MS,
			);
	});

	test(
		"a file install created goes again with the folders it made; a folder that was there, or holds more, stays",
		async () => {
			const home = privateHome();
			const fresh = tempDir("xcsh-faults-install-");
			await ok(cli, ["install", "copilot"], fresh, home);
			expect(existsSync(join(fresh, ".github/hooks/xcsh-hooks.json"))).toBe(true);
			const out = await ok(cli, ["uninstall", "copilot"], fresh, home);
			expect(out).toContain(`removed the empty folder ${join(fresh, ".github")}`);
			expect(existsSync(join(fresh, ".github"))).toBe(false);

			// An empty folder that existed before install is not install's to remove.
			const existing = tempDir("xcsh-faults-install-");
			mkdirSync(join(existing, ".claude"));
			await ok(cli, ["install", "claude"], existing, home);
			await ok(cli, ["uninstall", "claude"], existing, home);
			expect(existsSync(join(existing, ".claude/settings.json"))).toBe(false);
			expect(existsSync(join(existing, ".claude"))).toBe(true);

			// A folder install created that now holds another file stays, with that file.
			const shared = tempDir("xcsh-faults-install-");
			await ok(cli, ["install", "claude"], shared, home);
			writeFiles(shared, { ".claude/settings.local.json": "{}\n" });
			await ok(cli, ["uninstall", "claude"], shared, home);
			expect(existsSync(join(shared, ".claude/settings.json"))).toBe(false);
			expect(readFileSync(join(shared, ".claude/settings.local.json"), "utf8")).toBe("{}\n");
		},
		TIMEOUT_MS,
	);

	test(
		"entries the previous install wrote are still ours: updated in place, removed by uninstall",
		async () => {
			const legacy = (command: string) => ({ matcher: "*", hooks: [{ type: "command", command, timeout: 60, onFailure: "block" }] });
			const before = {
				hooks: {
					PreToolUse: [USER_AUDIT, legacy("'/home/u/my tools/xcsh-hooks' bridge claude")],
					Stop: [
						{ hooks: [{ type: "command", command: "/usr/bin/bun --no-env-file --config=/dev/null /src/xh/src/cli.ts bridge claude" }] },
					],
				},
			};
			const { dir, file } = project(".claude/settings.json", JSON.stringify(before, null, 2));
			const home = privateHome();
			const out = await ok(cli, ["install", "claude"], dir, home);
			expect(out).toContain("~ update PreToolUse (matcher *)");
			expect(out).toContain("~ update Stop");
			const after = parse(readFileSync(file, "utf8"));
			expect(after.hooks.PreToolUse).toHaveLength(2);
			expect(after.hooks.PreToolUse[0]).toEqual(USER_AUDIT);
			expect(after.hooks.PreToolUse[1].hooks[0].command).toEndWith(` bridge claude ${MARKER}`);
			expect(after.hooks.Stop).toHaveLength(1);
			await ok(cli, ["uninstall", "claude"], dir, home);
			expect(parse(readFileSync(file, "utf8"))).toEqual({ hooks: { PreToolUse: [USER_AUDIT] } });
		},
		TIMEOUT_MS,
	);

	test(
		"a user's hook whose command ends in `bridge claude` runs as the user's hook (the providers skip only ours)",
		async () => {
			const home = privateHome();
			const dir = tempDir("xcsh-faults-install-");
			const script = join(home, "audit.sh");
			writeFiles(home, {
				"audit.sh": `#!/bin/sh\ncase "$(cat)" in *'rm -rf'*) echo "audit: no rm -rf" >&2; exit 2 ;; esac\nexit 0\n`,
				".claude/settings.json": JSON.stringify({
					hooks: {
						PreToolUse: [
							{ matcher: "Bash", hooks: [{ type: "command", command: `sh ${script} --mode bridge claude` }] },
							// Ours, as this install writes it and as the previous one did: skipped (running them would loop).
							{ matcher: "*", hooks: [{ type: "command", command: `/opt/xcsh/xcsh-hooks bridge claude ${MARKER}` }] },
							{ matcher: "*", hooks: [{ type: "command", command: "/opt/xcsh/xcsh-hooks bridge claude" }] },
						],
					},
				}),
			});
			const run = await runCli(cli, ["run", "bash", "--input", JSON.stringify({ command: "rm -rf build" })], {
				cwd: dir,
				home,
				timeoutMs: 20_000,
			});
			expect(run.code).toBe(2);
			expect(run.stderr).toContain("audit: no rm -rf");
		},
		TIMEOUT_MS,
	);

	test(
		"a file that is not valid UTF-8 or not JSON is refused, naming it, and left as it was",
		async () => {
			const home = privateHome();
			const { dir, file } = project(".claude/settings.json", "");
			const bytes = new Uint8Array([...new TextEncoder().encode('{"model":"'), 0xff, ...new TextEncoder().encode('"}')]);
			writeFileSync(file, bytes);
			const run = await runCli(cli, ["install", "claude"], { cwd: dir, home, timeoutMs: 20_000 });
			expectCleanFailure(run, 1, file);
			expect(new Uint8Array(readFileSync(file))).toEqual(bytes);
			writeFileSync(file, '{"hooks": {');
			expectCleanFailure(await runCli(cli, ["install", "claude"], { cwd: dir, home, timeoutMs: 20_000 }), 1, file, "not valid JSON");
			expect(readFileSync(file, "utf8")).toBe('{"hooks": {');
		},
		TIMEOUT_MS,
	);
}

for (const cli of useClis()) describe(cli.name, () => cells(cli));
