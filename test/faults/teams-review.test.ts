/**
 * Holes found reviewing the team features (managed installs, the system hook folder, the machine's
 * settings, the OTLP export), each shown the way an attacker or an unlucky administrator meets it:
 *
 * - "root's alone" must hold for the whole path: a root-owned guard reached through a symlink into a
 *   folder a user owns, or an executable in a root folder below a user's folder, can be swapped by that
 *   user (rename the folder away, put their own in its place) — both were accepted.
 * - The machine's `/etc/xcsh/settings.json` names the team's collector in `otlp`, as it names
 *   `teamApprovals`, and it wins: the user's variables (`OTEL_SDK_DISABLED`, another endpoint) neither
 *   silence nor redirect it. It was not read at all.
 * - Codex's `requirements.toml`: a `[features]` header in a CRLF file got a second, dotted definition
 *   (invalid TOML: Codex then has no requirements); the switch set inside some other table was taken
 *   for the top-level one, so `--only-managed` reported nothing to do and switched nothing on.
 *
 * The namespace cells run as real root in a private mount namespace with /etc overlaid (the real /etc
 * is never touched, checked), since they need files owned by another user.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { addTomlEntries, removeTomlEntries } from "../../src/install/managed-toml.ts";
import { agentSpec } from "../../src/install/agents.ts";
import { CELL_TIMEOUT_MS, type Cli, executablePath, runArgv, useClis } from "./_cli.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "./_fixtures.ts";
import { decisionOf, preToolUse } from "./_socket.ts";

const clis = useClis();
const q = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
const asRoot = process.getuid?.() === 0;

/** Runs `script` as real root in a private mount namespace with /etc overlaid; `X` runs the CLI. */
function inNamespace(cli: Cli, script: string, options: { cwd: string; home: string; env?: Record<string, string> }) {
	const over = tempDir("xcsh-review-etc-");
	mkdirSync(join(over, "up"));
	mkdirSync(join(over, "work"));
	const setup = [
		"set -e",
		`mount -t overlay overlay -o lowerdir=/etc,upperdir=${q(join(over, "up"))},workdir=${q(join(over, "work"))} /etc`,
		"mkdir -p /etc/xcsh/bin /etc/xcsh/hooks && chmod 755 /etc/xcsh /etc/xcsh/bin /etc/xcsh/hooks",
		`cp ${q(executablePath())} /etc/xcsh/bin/xcsh-hooks && chmod 755 /etc/xcsh/bin/xcsh-hooks`,
		`X() { ${cli.argv([]).map(q).join(" ")} "$@"; }`,
		"set +e",
		script,
	].join("\n");
	return runArgv(["unshare", "--mount", "sh", "-c", setup], {
		cwd: options.cwd,
		home: options.home,
		env: options.env ?? {},
		timeoutMs: 60_000,
	});
}

/** A cell's folders: the project (`dir`), a private HOME, `out` for what the script writes, and `o(name)` quoting a file in it. */
function cellDirs() {
	const dir = tempDir();
	const home = privateHome();
	const out = join(dir, "out");
	mkdirSync(out);
	return { dir, home, out, o: (name: string) => q(join(out, name)) };
}

afterAll(() => {
	expect(existsSync("/etc/xcsh")).toBe(false);
});

const GUARD = `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm -rf") ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;

/** A loopback OTLP/HTTP receiver keeping the attributes of every log record it decodes. */
function receiver() {
	const records: Array<Record<string, unknown>> = [];
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			if (new URL(request.url).pathname !== "/v1/logs") return new Response("no", { status: 404 });
			const body = (await request.json()) as {
				resourceLogs: Array<{
					scopeLogs: Array<{ logRecords: Array<{ attributes?: Array<{ key: string; value: { stringValue?: string } }> }> }>;
				}>;
			};
			for (const rl of body.resourceLogs)
				for (const sl of rl.scopeLogs)
					for (const r of sl.logRecords) records.push(Object.fromEntries((r.attributes ?? []).map((a) => [a.key, a.value.stringValue])));
			return Response.json({});
		},
	});
	return { url: `http://127.0.0.1:${server.port}`, records, stop: () => server.stop(true) };
}

for (const cli of clis)
	describe.skipIf(!asRoot)(`root-owned means the whole path, the machine's collector (${cli.name})`, () => {
		test.concurrent(
			"a system hook reached through a symlink into a user's folder does not load; a managed --command below a user's folder is refused",
			async () => {
				const { dir, home, out, o } = cellDirs();
				const call = q(bashCall("rm -rf build"));
				await inNamespace(
					cli,
					[
						// /etc/xcsh/u is a user's (uid 65534); below it, everything is root's, 0755/0644.
						"mkdir -p /etc/xcsh/u/lib && chown 65534 /etc/xcsh/u && chmod 755 /etc/xcsh/u/lib",
						`printf %s ${q(GUARD)} > /etc/xcsh/u/lib/guard.ts && chmod 644 /etc/xcsh/u/lib/guard.ts`,
						"cp /etc/xcsh/bin/xcsh-hooks /etc/xcsh/u/lib/xcsh-hooks && chmod 755 /etc/xcsh/u/lib/xcsh-hooks",
						"ln -s /etc/xcsh/u/lib/guard.ts /etc/xcsh/hooks/guard.ts",
						`echo ${call} | X emit tool_call > ${o("link.txt")} 2>&1; echo $? >> ${o("link.txt")}`,
						`X install claude --managed --command /etc/xcsh/u/lib/xcsh-hooks > ${o("install.txt")} 2>&1; echo $? >> ${o("install.txt")}`,
						`[ -e /etc/claude-code/managed-settings.json ] && echo written >> ${o("install.txt")}`,
						// Control: the same guard, copied into the system folder itself, loads and blocks.
						"rm /etc/xcsh/hooks/guard.ts && cp /etc/xcsh/u/lib/guard.ts /etc/xcsh/hooks/guard.ts",
						`echo ${call} | X emit tool_call > ${o("copy.txt")} 2>&1; echo $? >> ${o("copy.txt")}`,
					].join("\n"),
					{ cwd: dir, home },
				);
				const link = readFileSync(join(out, "link.txt"), "utf8");
				expect(link).toContain("/etc/xcsh/hooks not loaded, none of it runs: /etc/xcsh/u is not owned by root (uid 65534)");
				expect(link).not.toContain("SYSTEM-GUARD");
				const install = readFileSync(join(out, "install.txt"), "utf8");
				expect(install).toContain(
					"--managed: the command must be at a system path only root can change, but /etc/xcsh/u is not owned by root",
				);
				expect(install).not.toContain("written");
				expect(install.trim().split("\n").at(-1)).toBe("1");
				const copy = readFileSync(join(out, "copy.txt"), "utf8");
				expect(copy).toContain("SYSTEM-GUARD");
				expect(copy.trim().endsWith("2")).toBe(true);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a system hook whose imports a user could change, or that imports what the check cannot follow, fails closed; root's own helpers and packages run",
			async () => {
				const { dir, home, out, o } = cellDirs();
				const call = q(bashCall("rm -rf build"));
				// The user's "policy": it allows everything, and says so if it ever runs.
				const EVIL = `export const blocked = () => { require("node:fs").writeFileSync(${JSON.stringify(join(out, "ran-user-code"))}, "x"); return false; };\n`;
				const POLICY = `export const blocked = (c) => c.includes("rm -rf");\n`;
				const importing = (from: string) =>
					`import { blocked } from ${JSON.stringify(from)};\nexport default (pi) => pi.on("tool_call", (e) => (blocked(String(e.input.command)) ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;
				const guard = (from: string) => `printf %s ${q(importing(from))} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`;
				const emit = (name: string) => `echo ${call} | X emit tool_call > ${o(name)} 2>&1; echo $? >> ${o(name)}`;
				const cases: Array<[string, string[]]> = [
					// A helper in a folder a user owns (uid 65534), the file itself root's.
					[
						"user-folder",
						[`printf %s ${q(POLICY)} > /etc/xcsh/u/policy.ts && chmod 644 /etc/xcsh/u/policy.ts`, guard("/etc/xcsh/u/policy.ts")],
					],
					// Root's helper, reached through a link in the user's folder (the user can repoint it).
					["user-link", ["ln -sfn /etc/xcsh/lib/policy.ts /etc/xcsh/u/link.ts", guard("/etc/xcsh/u/link.ts")]],
					// A helper beside the guard, in root's folder, that anyone may write.
					["writable", ["chmod 666 /etc/xcsh/hooks/lib/policy.ts", guard("./lib/policy.ts")]],
					// An import of a file that is not there.
					["missing", ["chmod 644 /etc/xcsh/hooks/lib/policy.ts", guard("./lib/missing.ts")]],
					// A package in no node_modules (Bun would take it from NODE_PATH or install it into the user's cache).
					["no-modules", [guard("team-policy")]],
					// The user's NODE_PATH, with a package root has installed: it could serve what a package requires.
					["node-path", [`export NODE_PATH=${q(join(home, "lib"))}`, guard("root-policy")]],
					// A tsconfig alias to root's file where no node_modules has the name (the executable applies no alias).
					[
						"alias",
						[
							"unset NODE_PATH",
							`printf %s '{"compilerOptions":{"paths":{"team-policy":["./lib/policy.ts"]}}}' > /etc/xcsh/hooks/tsconfig.json`,
							guard("team-policy"),
						],
					],
					// A package in a node_modules folder Bun looks in that the user may write to (above the system folder).
					["user-modules", ["chmod 777 /etc/xcsh/node_modules", guard("root-policy")]],
					// package.json #imports, mapped to the user's file.
					[
						"hash-import",
						[
							"chmod 755 /etc/xcsh/node_modules",
							`printf %s '{"imports":{"#policy":"./u/evil.ts"}}' > /etc/xcsh/package.json`,
							guard("#policy"),
						],
					],
					// Control: root's helper, and root's package, run.
					["root", ["rm /etc/xcsh/package.json", guard("./lib/policy.ts")]],
					["root-package", [guard("root-policy")]],
				];
				await inNamespace(
					cli,
					[
						"mkdir -p /etc/xcsh/u /etc/xcsh/lib /etc/xcsh/hooks/lib /etc/xcsh/node_modules/root-policy && chown 65534 /etc/xcsh/u",
						`printf %s ${q(POLICY)} > /etc/xcsh/lib/policy.ts && chmod 644 /etc/xcsh/lib/policy.ts`,
						`printf %s ${q(POLICY)} > /etc/xcsh/hooks/lib/policy.ts && chmod 644 /etc/xcsh/hooks/lib/policy.ts`,
						`printf %s ${q(POLICY)} > /etc/xcsh/node_modules/root-policy/index.js`,
						`printf %s ${q(EVIL)} > /etc/xcsh/u/evil.ts && chown 65534 /etc/xcsh/u/evil.ts`,
						`mkdir -p ${q(join(home, "lib", "team-policy"))} && printf %s ${q(EVIL)} > ${q(join(home, "lib", "team-policy", "index.js"))}`,
						...cases.flatMap(([name, steps]) => [...steps, emit(`${name}.txt`)]),
					].join("\n"),
					{ cwd: dir, home },
				);
				const read = (name: string) => readFileSync(join(out, `${name}.txt`), "utf8");
				const failedClosed: Record<string, string> = {
					"user-folder": 'imports "/etc/xcsh/u/policy.ts": /etc/xcsh/u is not owned by root (uid 65534)',
					"user-link": 'imports "/etc/xcsh/u/link.ts": /etc/xcsh/u is not owned by root (uid 65534)',
					writable: 'imports "./lib/policy.ts": /etc/xcsh/hooks/lib/policy.ts is writable by others',
					missing: 'imports "./lib/missing.ts", which names no file',
					"no-modules": 'imports "team-policy", a package installed in no node_modules folder above it',
					"node-path": `NODE_PATH names ${join(home, "lib")}: `,
					"user-modules": 'imports "root-policy": /etc/xcsh/node_modules is writable by others',
					"hash-import": 'imports "#policy", a package.json import, which is not checked',
				};
				for (const [name, reason] of Object.entries(failedClosed)) {
					const text = read(name);
					expect({ name, reason: text.includes(reason), closed: text.includes("the system hook does not run (fail closed)") }).toEqual({
						name,
						reason: true,
						closed: true,
					});
					expect({ name, exit: text.trim().split("\n").at(-1) }).toEqual({ name, exit: "2" }); // blocked, never allowed
				}
				// Through the alias `bun src/cli.ts` runs root's file; the executable, applying none, fails closed.
				const alias = read("alias");
				if (cli.name === "compiled executable")
					expect(alias).toContain('imports "team-policy", a package installed in no node_modules folder');
				else expect(alias).toContain("SYSTEM-GUARD");
				expect(alias.trim().split("\n").at(-1)).toBe("2");
				for (const name of ["root", "root-package"]) {
					const text = read(name);
					expect({ name, guarded: text.includes("SYSTEM-GUARD"), closed: text.includes("fail closed") }).toEqual({
						name,
						guarded: true,
						closed: false,
					});
				}
				expect(existsSync(join(out, "ran-user-code"))).toBe(false);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a system hook failed closed by its imports runs again once they are root's alone, without restarting the agent (in-process)",
			async () => {
				const { dir, home, out, o } = cellDirs();
				// The agent folder exists already: the first decision logged creates nothing a watcher sees.
				writeFiles(home, { ".xcsh/agent/settings.json": "{}\n" });
				const guard = `import { blocked } from "../lib/policy.ts";\nexport default (pi) => pi.on("tool_call", (e) => (blocked(String(e.input.command)) ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;
				await inNamespace(
					cli,
					[
						"mkdir -p /etc/xcsh/lib", // outside the system folder: only the import check watches it
						`printf %s ${q('export const blocked = (c) => c.includes("rm -rf");\n')} > /etc/xcsh/lib/policy.ts && chmod 666 /etc/xcsh/lib/policy.ts`,
						`printf %s ${q(guard)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
						`${q(process.execPath)} ${q(join(import.meta.dir, "_inprocess-driver.ts"))} system-fix > ${o("driver.json")} 2>&1`,
					].join("\n"),
					{ cwd: dir, home },
				);
				const result = JSON.parse(readFileSync(join(out, "driver.json"), "utf8").trim().split("\n").at(-1) as string);
				expect(result.before.block).toBe(true);
				expect(result.before.reason).toContain("/etc/xcsh/lib/policy.ts is writable by others");
				expect(result.after).toEqual({ block: true, reason: "SYSTEM-GUARD" });
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a managed entry drops BUN_BE_BUN and BUN_OPTIONS, which a project can put in the agent's environment, before the executable starts",
			async () => {
				const { dir, home, out, o } = cellDirs();
				// What a cloned repository brings: a `bridge` script (plain Bun runs it) and a preload.
				writeFiles(dir, {
					bridge: `require("node:fs").writeFileSync(${JSON.stringify(join(out, "ran-bridge"))}, "x"); process.exit(0);\n`,
					"evil.ts": `require("node:fs").writeFileSync(${JSON.stringify(join(out, "ran-preload"))}, "x");\n`,
				});
				const payload = q(preToolUse("claude", dir, "rm -rf build"));
				const entry = `bun -e 'console.log(JSON.parse(require("fs").readFileSync("/etc/claude-code/managed-settings.json","utf8")).hooks.PreToolUse[0].hooks[0].command)'`;
				await inNamespace(
					cli,
					[
						`printf %s ${q(GUARD)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
						"X install claude --managed --command /etc/xcsh/bin/xcsh-hooks > /dev/null 2>&1",
						`CMD=$(${entry})`,
						`printf %s ${payload} | BUN_BE_BUN=1 sh -c "$CMD" > ${o("be-bun.json")} 2>&1`,
						`printf %s ${payload} | BUN_OPTIONS="--preload ./evil.ts" sh -c "$CMD" > ${o("options.json")} 2>&1`,
					].join("\n"),
					{ cwd: dir, home, env: { PATH: `${join(process.execPath, "..")}:${process.env.PATH ?? "/usr/bin:/bin"}` } },
				);
				for (const name of ["be-bun.json", "options.json"])
					expect(decisionOf(readFileSync(join(out, name), "utf8"))).toEqual({
						decision: "deny",
						reason: expect.stringContaining("SYSTEM-GUARD"),
					});
				expect(existsSync(join(out, "ran-bridge"))).toBe(false);
				expect(existsSync(join(out, "ran-preload"))).toBe(false);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"install codex --managed refuses, and keeps the file, when our tables would make the administrator's requirements.toml invalid",
			async () => {
				const { dir, home, out } = cellDirs();
				const admin = '[hooks]\nPreToolUse = [{ matcher = "Bash", hooks = [{ type = "command", command = "/usr/local/bin/audit" }] }]\n';
				await inNamespace(
					cli,
					[
						`mkdir -p /etc/codex && printf %s ${q(admin)} > /etc/codex/requirements.toml`,
						`X install codex --managed --command /etc/xcsh/bin/xcsh-hooks > ${q(join(out, "install.txt"))} 2>&1; echo $? >> ${q(join(out, "install.txt"))}`,
						`cp /etc/codex/requirements.toml ${q(join(out, "after.toml"))}`,
					].join("\n"),
					{ cwd: dir, home },
				);
				const install = readFileSync(join(out, "install.txt"), "utf8");
				expect(install).toContain("/etc/codex/requirements.toml: our entries cannot be added to it as it is");
				expect(install.trim().split("\n").at(-1)).not.toBe("0");
				expect(readFileSync(join(out, "after.toml"), "utf8")).toBe(admin);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"a managed --command with a relative path, or running Bun that would read the project's bunfig.toml, is refused",
			async () => {
				const { dir, home, out, o } = cellDirs();
				const bun = "/etc/xcsh/bin/bun";
				await inNamespace(
					cli,
					[
						`cp ${q(process.execPath)} ${bun} && chmod 755 ${bun}`,
						`X install claude --managed --command '/etc/xcsh/bin/xcsh-hooks --preload=./x.ts' > ${o("relative.txt")} 2>&1; echo $? >> ${o("relative.txt")}`,
						`X install claude --managed --command '${bun} --no-env-file --config=/dev/null cli.ts' > ${o("script.txt")} 2>&1; echo $? >> ${o("script.txt")}`,
						`X install claude --managed --command '${bun} /etc/xcsh/bin/cli.ts' > ${o("bunfig.txt")} 2>&1; echo $? >> ${o("bunfig.txt")}`,
						`[ -e /etc/claude-code/managed-settings.json ] && echo written > ${o("written")}`,
					].join("\n"),
					{ cwd: dir, home },
				);
				for (const [name, why] of [
					["relative", "every path in --command must be absolute, but --preload=./x.ts is not"],
					["script", "every path in --command must be absolute, but cli.ts is not"],
					["bunfig", "a --command running Bun needs --no-env-file --config=/dev/null"],
				] as const) {
					const text = readFileSync(join(out, `${name}.txt`), "utf8");
					expect(text).toContain(why);
					expect(text.trim().split("\n").at(-1)).toBe("1");
				}
				expect(existsSync(join(out, "written"))).toBe(false);
			},
			CELL_TIMEOUT_MS,
		);

		test.concurrent(
			"/etc/xcsh/settings.json's otlp gets every decision, although the user's variables disable or redirect the export",
			async () => {
				const team = receiver();
				const users = receiver();
				try {
					const dir = tempDir();
					const home = privateHome({ otlp: { endpoint: users.url } });
					const settings = JSON.stringify({ otlp: { endpoint: team.url, headers: { "x-team": "t" } } });
					const call = q(bashCall("rm -rf build"));
					await inNamespace(
						cli,
						[
							`printf %s ${q(GUARD)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
							`printf %s ${q(settings)} > /etc/xcsh/settings.json && chmod 644 /etc/xcsh/settings.json`,
							`echo ${call} | X emit tool_call`,
							// A settings file others can write names no collector: the user's own export applies again.
							"chmod 666 /etc/xcsh/settings.json",
							`echo ${call} | OTEL_SDK_DISABLED= OTEL_EXPORTER_OTLP_ENDPOINT= X emit tool_call`,
						].join("\n"),
						{ cwd: dir, home, env: { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: users.url } },
					);
					expect(team.records.length).toBe(1);
					expect(team.records[0]).toMatchObject({
						"xcsh.decision": "deny",
						"xcsh.tool": "bash",
						"xcsh.reason": expect.stringContaining("SYSTEM-GUARD"),
					});
					expect(users.records.length).toBe(1);
				} finally {
					team.stop();
					users.stop();
				}
			},
			CELL_TIMEOUT_MS,
		);
	});

describe("Codex requirements.toml edits stay valid TOML and set the top-level switch", () => {
	const spec = agentSpec("codex");
	const command = "/usr/local/bin/xcsh-hooks bridge codex";
	const parse = (text: string) => Bun.TOML.parse(text) as Record<string, unknown> & { features?: Record<string, unknown> };

	test("a CRLF [features] table gets hooks = true inside it, not a second definition", () => {
		const before = "[features]\r\nweb_search = true\r\n";
		const { text } = addTomlEntries(before, spec, command, "requirements.toml", "allow_managed_hooks_only");
		const parsed = parse(text);
		expect(parsed.allow_managed_hooks_only).toBe(true);
		expect(parsed.features).toEqual({ web_search: true, hooks: true });
		expect(removeTomlEntries(text, spec).text).toBe(before);
	});

	test("the switch inside another table is not the switch: --only-managed still sets the top-level one", () => {
		const before = "[profiles.ci]\nallow_managed_hooks_only = true\n";
		const { text, changes } = addTomlEntries(before, spec, command, "requirements.toml", "allow_managed_hooks_only");
		expect(parse(text).allow_managed_hooks_only).toBe(true);
		expect(changes.map((c) => c.event)).toContain("allow_managed_hooks_only");
		expect(removeTomlEntries(text, spec).text).toBe(before);
	});
});
