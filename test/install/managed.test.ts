/**
 * `install <agent> --managed` and the system hook folder, in a private mount namespace whose /etc is an
 * overlay over the real one: every write lands in a temp dir, the real /etc is never touched (checked).
 * Both ways of starting the CLI; real files, real processes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, executablePath, runArgv, useClis } from "../faults/_cli.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "../faults/_fixtures.ts";
import { decisionOf, preToolUse, socketOf } from "../faults/_socket.ts";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";

const q = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
const MANAGED = "/etc/claude-code/managed-settings.json";

/** Runs `script` (sh) in a new user + mount namespace with /etc overlaid; `X` runs the CLI. Resolves stdout/stderr/code. */
function inNamespace(cli: Cli, script: string, options: { cwd: string; home: string; stdin?: string; realRoot?: boolean }) {
	const over = tempDir("xcsh-managed-etc-");
	mkdirSync(join(over, "up"));
	mkdirSync(join(over, "work"));
	const argv = cli.argv([]).map(q).join(" ");
	const setup = [
		"set -e",
		`mount -t overlay overlay -o lowerdir=/etc,upperdir=${q(join(over, "up"))},workdir=${q(join(over, "work"))} /etc`,
		"mkdir -p /etc/xcsh/bin /etc/xcsh/hooks && chmod 755 /etc/xcsh /etc/xcsh/bin /etc/xcsh/hooks",
		`cp ${q(executablePath())} /etc/xcsh/bin/xcsh-hooks && chmod 755 /etc/xcsh/bin/xcsh-hooks`,
		`X() { ${argv} "$@"; }`,
		"set +e",
		script,
	].join("\n");
	// `--map-root-user` makes us root in the namespace; as real root a plain mount namespace lets a test drop to `nobody`.
	const ns = options.realRoot ? ["unshare", "--mount"] : ["unshare", "--mount", "--map-root-user"];
	const stdin = options.stdin === undefined ? {} : { stdin: options.stdin };
	return runArgv([...ns, "sh", "-c", setup], { cwd: options.cwd, home: options.home, ...stdin, timeoutMs: 60_000 });
}

afterAll(() => {
	// The whole point: nothing reached the real /etc.
	expect(existsSync(MANAGED)).toBe(false);
	expect(existsSync("/etc/xcsh")).toBe(false);
});

const ADMIN = `{\n  "permissions": { "deny": ["WebFetch"] },\n  "allowManagedHooksOnly": false\n}\n`;

function cells(cli: Cli): void {
	test.concurrent(
		"install --managed --only-managed writes managed-settings.json; uninstall --managed gives the admin's file back byte for byte",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const out = join(dir, "out");
			mkdirSync(out);
			const run = await inNamespace(
				cli,
				[
					`mkdir -p /etc/claude-code && printf %s ${q(ADMIN)} > ${MANAGED}`,
					`X install claude --managed --only-managed --command /etc/xcsh/bin/xcsh-hooks > ${q(join(out, "install.txt"))} 2>&1; echo $? > ${q(join(out, "install.rc"))}`,
					`cp ${MANAGED} ${q(join(out, "after-install.json"))}`,
					`X uninstall claude --managed > ${q(join(out, "uninstall.txt"))} 2>&1; echo $? > ${q(join(out, "uninstall.rc"))}`,
					`cp ${MANAGED} ${q(join(out, "after-uninstall.json"))}`,
				].join("\n"),
				{ cwd: dir, home },
			);
			expect(run.stderr).toBe("");
			const read = (name: string) => readFileSync(join(out, name), "utf8");
			expect(read("install.rc").trim()).toBe("0");
			const installed = JSON.parse(read("after-install.json"));
			expect(installed.allowManagedHooksOnly).toBe(true);
			expect(installed.permissions).toEqual({ deny: ["WebFetch"] });
			expect(installed.hooks.PreToolUse[0].hooks[0].command).toBe(
				entryCommand("/etc/xcsh/bin/xcsh-hooks bridge claude --managed --installed-by=xcsh-hooks", true),
			);
			expect(installed.hooks.PreToolUse[0].hooks[0].onFailure).toBe("block");
			expect(read("uninstall.rc").trim()).toBe("0");
			expect(read("after-uninstall.json")).toBe(ADMIN);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"codex: requirements.toml gets one marked block, the switch and the features pin; uninstall gives the file back byte for byte, or removes the one it created",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const out = join(dir, "out");
			mkdirSync(out);
			const admin = `allowed_approval_policies = ["never"]\n\n[features]\nweb_search = false\n`;
			const file = "/etc/codex/requirements.toml";
			const o = (name: string) => q(join(out, name));
			await inNamespace(
				cli,
				[
					`mkdir -p /etc/codex && printf %s ${q(admin)} > ${file}`,
					`X install codex --managed --only-managed --command /etc/xcsh/bin/xcsh-hooks > ${o("install.txt")} 2>&1; echo $? >> ${o("install.txt")}`,
					`cp ${file} ${o("installed.toml")}`,
					`X uninstall codex --managed > ${o("uninstall.txt")} 2>&1; echo $? >> ${o("uninstall.txt")}`,
					`cp ${file} ${o("after.toml")}`,
					`rm ${file}; X install codex --managed --command /etc/xcsh/bin/xcsh-hooks > /dev/null 2>&1; cp ${file} ${o("plain.toml")}; X uninstall codex --managed > /dev/null 2>&1`,
					`ls /etc/codex > ${o("ls.txt")}`,
				].join("\n"),
				{ cwd: dir, home },
			);
			const read = (name: string) => readFileSync(join(out, name), "utf8");
			expect(read("install.txt").trim().endsWith("0")).toBe(true);
			const installed = Bun.TOML.parse(read("installed.toml")) as Record<string, any>;
			expect(installed.allow_managed_hooks_only).toBe(true);
			expect(installed.features).toEqual({ web_search: false, hooks: true });
			expect(installed.allowed_approval_policies).toEqual(["never"]);
			expect(installed.hooks.PreToolUse[0].matcher).toBe("*");
			expect(installed.hooks.PreToolUse[0].hooks[0].command).toBe(
				entryCommand("/etc/xcsh/bin/xcsh-hooks bridge codex --managed --installed-by=xcsh-hooks", true),
			);
			expect(read("uninstall.txt").trim().endsWith("0")).toBe(true);
			expect(read("after.toml")).toBe(admin);
			expect(read("ls.txt")).toBe("");
			// Without --only-managed too: a user's `[features] hooks = false` would switch the managed hooks off.
			const plain = Bun.TOML.parse(read("plain.toml")) as Record<string, any>;
			expect(plain.features).toEqual({ hooks: true });
			expect(plain.allow_managed_hooks_only).toBeUndefined();
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"gemini: the system settings pin hooksConfig.enabled (they override the user's and the project's); install says what a user can still switch off; uninstall gives the admin's file back",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const out = join(dir, "out");
			mkdirSync(out);
			const o = (name: string) => q(join(out, name));
			const file = "/etc/gemini-cli/settings.json";
			const admin = `{\n  "hooksConfig": { "enabled": false, "notifications": false },\n  "general": { "vimMode": true }\n}\n`;
			await inNamespace(
				cli,
				[
					`X install gemini --managed --command /etc/xcsh/bin/xcsh-hooks > ${o("fresh.txt")} 2>&1; echo $? >> ${o("fresh.txt")}`,
					`cp ${file} ${o("fresh.json")}`,
					`X uninstall gemini --managed > /dev/null 2>&1; ls /etc/gemini-cli > ${o("ls.txt")} 2>&1`,
					`printf %s ${q(admin)} > ${file}`,
					`X install gemini --managed --command /etc/xcsh/bin/xcsh-hooks > /dev/null 2>&1`,
					`cp ${file} ${o("admin.json")}`,
					`X uninstall gemini --managed > /dev/null 2>&1; cp ${file} ${o("after.json")}`,
				].join("\n"),
				{ cwd: dir, home },
			);
			const read = (name: string) => readFileSync(join(out, name), "utf8");
			const fresh = JSON.parse(read("fresh.json"));
			expect(fresh.hooksConfig).toEqual({ enabled: true });
			expect(fresh.hooks.BeforeTool[0].hooks[0].command).toEndWith("bridge gemini --managed --installed-by=xcsh-hooks");
			const printed = read("fresh.txt");
			expect(printed.trim().endsWith("0")).toBe(true);
			expect(printed).toContain("hooksConfig.disabled");
			expect(printed).toContain("does not trust");
			expect(read("ls.txt")).toBe("");
			const pinned = JSON.parse(read("admin.json"));
			expect(pinned.hooksConfig).toEqual({ enabled: true, notifications: false });
			expect(pinned.general).toEqual({ vimMode: true });
			expect(read("after.json")).toBe(admin);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"refusals are one line, exit 1, nothing written: no managed channel, no switch, a command users can replace, no root",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			writeFiles(dir, { "bin/xcsh-hooks": "#!/bin/sh\n" });
			const out = join(dir, "out");
			mkdirSync(out);
			const cases = {
				inline: `mkdir -p /etc/codex && echo 'hooks = {}' > /etc/codex/requirements.toml; X install codex --managed --command /etc/xcsh/bin/xcsh-hooks`,
				copilot: "X install copilot --managed --command /etc/xcsh/bin/xcsh-hooks",
				gemini: "X install gemini --managed --only-managed --command /etc/xcsh/bin/xcsh-hooks",
				writable: `chmod 777 ${q(join(dir, "bin"))}; X install claude --managed --command ${q(join(dir, "bin", "xcsh-hooks"))}`,
				relative: "X install claude --managed --command xcsh-hooks",
			};
			const script = Object.entries(cases).map(
				([name, line]) => `${line} > ${q(join(out, `${name}.txt`))} 2>&1; echo $? >> ${q(join(out, `${name}.txt`))}`,
			);
			script.push(`ls /etc/claude-code /etc/gemini-cli > ${q(join(out, "ls.txt"))} 2>&1 || true`);
			await inNamespace(cli, script.join("\n"), { cwd: dir, home });
			const read = (name: string) =>
				readFileSync(join(out, `${name}.txt`), "utf8")
					.trim()
					.split("\n");
			for (const [name, needle] of [
				["inline", "hooks is set as an inline value"],
				["copilot", "has no managed configuration for hooks"],
				["gemini", 'has no "managed hooks only" switch, and a user or a trusted project can still switch the managed entries off'],
				["writable", "is writable by others"],
				["relative", "absolute path"],
			] as const) {
				const lines = read(name);
				expect(lines).toHaveLength(2);
				expect(lines[0]).toContain(needle);
				expect(lines[1]).toBe("1");
			}
			expect(read("ls").join(" ")).toContain("No such file");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"the system hook folder runs first and cannot be disabled or replaced by the user or the project; a folder others can write is refused",
		async () => {
			const dir = tempDir();
			const home = privateHome({ disabledProviders: ["system"], disabledExtensions: ["hook:pre:*:guard"] });
			writeFiles(home, { ".xcsh/agent/hooks/guard.ts": "export default () => {};\n" });
			writeFiles(dir, { ".xcsh/settings.json": JSON.stringify({ disabledProviders: ["system"] }) });
			const guard = `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm -rf") ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;
			const out = join(dir, "out");
			mkdirSync(out);
			const call = q(bashCall("rm -rf build"));
			await inNamespace(
				cli,
				[
					`printf %s ${q(guard)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
					`echo ${call} | X emit tool_call > ${q(join(out, "ok.txt"))} 2>&1; echo $? >> ${q(join(out, "ok.txt"))}`,
					"chmod 775 /etc/xcsh/hooks",
					`echo ${call} | X emit tool_call > ${q(join(out, "group.txt"))} 2>&1; echo $? >> ${q(join(out, "group.txt"))}`,
					"chmod 755 /etc/xcsh/hooks && chmod 666 /etc/xcsh/hooks/guard.ts",
					`echo ${call} | X emit tool_call > ${q(join(out, "file.txt"))} 2>&1; echo $? >> ${q(join(out, "file.txt"))}`,
				].join("\n"),
				{ cwd: dir, home },
			);
			const ok = readFileSync(join(out, "ok.txt"), "utf8");
			expect(ok).toContain("SYSTEM-GUARD");
			expect(ok.trim().endsWith("2")).toBe(true);
			for (const [name, why] of [
				["group", "/etc/xcsh/hooks is writable by its group"],
				["file", "/etc/xcsh/hooks/guard.ts is writable by others"],
			]) {
				const text = readFileSync(join(out, `${name}.txt`), "utf8");
				expect(text).toContain(`/etc/xcsh/hooks not loaded, none of it runs: ${why}`);
				expect(text).not.toContain("SYSTEM-GUARD");
				expect(text.trim().endsWith("0")).toBe(true);
			}
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"with the system folder, a bridge call never goes to the user's hook server (a stand-in could answer allow)",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const out = join(dir, "out");
			mkdirSync(out);
			const socket = socketOf(home);
			mkdirSync(join(home, ".xcsh", "agent"), { recursive: true, mode: 0o700 });
			// A stand-in server: it only notes that a bridge call connected to it.
			writeFiles(dir, {
				"fake.ts": `require("node:fs").rmSync(${JSON.stringify(socket)}, { force: true });
Bun.listen({ unix: ${JSON.stringify(socket)}, socket: { open() { require("node:fs").appendFileSync(${JSON.stringify(join(out, "connected"))}, "x"); }, data() {} } });
setTimeout(() => process.exit(0), 30_000);\n`,
			});
			const guard = `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm -rf") ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;
			const payload = q(preToolUse("claude", dir, "rm -rf build"));
			const o = (name: string) => q(join(out, name));
			await inNamespace(
				cli,
				[
					`printf %s ${q(guard)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
					`${q(process.execPath)} ${q(join(dir, "fake.ts"))} & FAKE=$!`,
					`for i in $(seq 1 100); do [ -S ${q(socket)} ] && break; sleep 0.1; done`,
					`printf %s ${payload} | X bridge claude > ${o("managed.json")} 2>${o("managed.err")}`,
					`cp ${o("connected")} ${o("connected-managed")} 2>/dev/null || true`,
					// An empty system folder still marks the machine as managed.
					"rm -f /etc/xcsh/hooks/guard.ts",
					`printf %s ${payload} | X bridge claude > /dev/null 2>&1`,
					`cp ${o("connected")} ${o("connected-empty")} 2>/dev/null || true`,
					// Control: without the system folder the same call does go to the server.
					"rm -rf /etc/xcsh/hooks",
					`printf %s ${payload} | X bridge claude > /dev/null 2>&1`,
					'kill "$FAKE"',
				].join("\n"),
				{ cwd: dir, home },
			);
			expect(decisionOf(readFileSync(join(out, "managed.json"), "utf8"))).toEqual({
				decision: "deny",
				reason: expect.stringContaining("SYSTEM-GUARD"),
			});
			expect(existsSync(join(out, "connected-managed"))).toBe(false);
			expect(existsSync(join(out, "connected-empty"))).toBe(false);
			expect(existsSync(join(out, "connected"))).toBe(true);
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a managed entry's call denies, naming why, when the system hook folder fails its ownership check (a user's entry warns); install upgrades an old managed entry",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const out = join(dir, "out");
			mkdirSync(out);
			const o = (name: string) => q(join(out, name));
			const guard = `export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm -rf") ? { block: true, reason: "SYSTEM-GUARD" } : undefined));\n`;
			const payload = q(preToolUse("claude", dir, "rm -rf build"));
			// An entry an older install --managed wrote: no --managed flag.
			const old = JSON.stringify({
				hooks: {
					PreToolUse: [
						{ matcher: "*", hooks: [{ type: "command", command: "/etc/xcsh/bin/xcsh-hooks bridge claude --installed-by=xcsh-hooks" }] },
					],
				},
			});
			// The managed entry's command line, exactly as installed, run the way Claude Code runs it (sh -c).
			const entry = `${q(process.execPath)} -e ${q(`console.log(JSON.parse(require("fs").readFileSync(${JSON.stringify(MANAGED)}, "utf8")).hooks.PreToolUse[0].hooks[0].command)`)}`;
			await inNamespace(
				cli,
				[
					`mkdir -p /etc/claude-code && printf %s ${q(old)} > ${MANAGED}`,
					`X install claude --managed --command /etc/xcsh/bin/xcsh-hooks > ${o("install.txt")} 2>&1`,
					`cp ${MANAGED} ${o("installed.json")}`,
					`ENTRY=$(${entry})`,
					`printf %s ${q(guard)} > /etc/xcsh/hooks/guard.ts && chmod 644 /etc/xcsh/hooks/guard.ts`,
					`printf %s ${payload} | sh -c "$ENTRY" > ${o("ok.json")} 2>${o("ok.err")}`,
					"chmod 777 /etc/xcsh/hooks",
					`printf %s ${payload} | sh -c "$ENTRY" > ${o("writable.json")} 2>${o("writable.err")}`,
					`printf %s ${payload} | X bridge claude > ${o("user.json")} 2>${o("user.err")}`,
					// The hooks renamed away by whoever can write /etc/xcsh: a missing folder is no way out.
					"chmod 755 /etc/xcsh/hooks && chmod 777 /etc/xcsh && mv /etc/xcsh/hooks /etc/xcsh/gone",
					`printf %s ${payload} | sh -c "$ENTRY" > ${o("renamed.json")} 2>${o("renamed.err")}`,
					// Control: no system folder on a path only root can change is no organisation guard, no deny.
					"chmod 755 /etc/xcsh && rm -rf /etc/xcsh/gone",
					`printf %s ${payload} | sh -c "$ENTRY" > ${o("none.json")} 2>${o("none.err")}`,
				].join("\n"),
				{ cwd: dir, home },
			);
			const read = (name: string) => readFileSync(join(out, name), "utf8");
			const installed = JSON.parse(read("installed.json"));
			expect(installed.hooks.PreToolUse).toHaveLength(1);
			expect(installed.hooks.PreToolUse[0].hooks).toHaveLength(1);
			expect(installed.hooks.PreToolUse[0].hooks[0].command).toEndWith(
				"/etc/xcsh/bin/xcsh-hooks bridge claude --managed --installed-by=xcsh-hooks",
			);
			expect(decisionOf(read("ok.json"))).toEqual({ decision: "deny", reason: expect.stringContaining("SYSTEM-GUARD") });
			expect(decisionOf(read("writable.json"))).toEqual({
				decision: "deny",
				reason: expect.stringContaining("/etc/xcsh/hooks not loaded, none of it runs: /etc/xcsh/hooks is writable by others"),
			});
			// The user's own entry keeps today's behaviour: a warning, and the user's hooks decide.
			expect(read("user.err")).toContain("/etc/xcsh/hooks not loaded, none of it runs: /etc/xcsh/hooks is writable by others");
			expect(decisionOf(read("user.json"))?.decision).not.toBe("deny");
			expect(decisionOf(read("renamed.json"))).toEqual({
				decision: "deny",
				reason: expect.stringContaining("/etc/xcsh is writable by others"),
			});
			expect(decisionOf(read("none.json"))?.decision).not.toBe("deny");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"without the rights the managed path needs: exit 1, one line saying so",
		async () => {
			const dir = tempDir();
			const home = privateHome();
			const root = process.getuid?.() === 0;
			const command = "install claude --managed --command /etc/xcsh/bin/xcsh-hooks";
			// As real root: drop to `nobody` inside the namespace; otherwise this user already lacks the rights.
			const line = root
				? `chmod 755 ${q(dir)} ${q(home)}; setpriv --reuid=65534 --regid=65534 --clear-groups /etc/xcsh/bin/xcsh-hooks ${command}`
				: `/etc/xcsh/bin/xcsh-hooks ${command}`;
			const run = await inNamespace(cli, line, { cwd: dir, home, realRoot: root });
			expect(run.code).toBe(1);
			const lines = run.stderr.trim().split("\n");
			expect(lines).toHaveLength(1);
			expect(lines[0]).toContain(`${MANAGED} needs administrator rights`);
		},
		CELL_TIMEOUT_MS,
	);
}

const clis = useClis();
for (const cli of clis) describe(cli.name, () => cells(cli));
