import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
	agentSpec,
	bridgeCommand,
	bridgeStatus,
	INSTALL_MARKER,
	isInstallError,
	installBridge,
	isBridgeCommand,
	shellQuote,
	uninstallBridge,
} from "../../src/install/index.ts";
import { entryCommand } from "../../src/agents/_shared/entry-shell.ts";
import { tempDir } from "../_helpers.ts";

/** The built-in agents this file covers. */
type Agent = "claude" | "codex" | "gemini" | "cursor" | "copilot" | "qwen" | "droid" | "auggie";

const CMD = "/opt/xcsh/xcsh-hooks";

/** Per agent: a config that already holds the user's own hooks and settings, in its own indentation. */
const EXISTING: Record<Agent, { path: string; value: unknown; indent: string | number }> = {
	claude: {
		path: ".claude/settings.json",
		indent: "\t",
		value: {
			permissions: { allow: ["Bash(ls)"] },
			hooks: {
				PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }],
				Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
			},
			model: "opus",
		},
	},
	codex: {
		path: ".codex/hooks.json",
		indent: 4,
		value: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "python3 check.py", timeout: 30 }] }] } },
	},
	gemini: {
		path: ".gemini/settings.json",
		indent: 2,
		value: {
			general: { enableAutoUpdate: false },
			hooks: {
				enabled: true,
				disabled: ["old-hook"],
				BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", name: "lint", command: "lint.sh", timeout: 5000 }] }],
			},
		},
	},
	cursor: {
		path: ".cursor/hooks.json",
		indent: 2,
		value: {
			version: 1,
			hooks: { afterFileEdit: [{ command: "./format.sh" }], preToolUse: [{ command: "./other.sh", matcher: "Shell" }] },
		},
	},
	copilot: {
		path: ".github/hooks/xcsh-hooks.json",
		indent: 2,
		value: { version: 1, note: "kept", hooks: { preToolUse: [{ type: "command", bash: "echo hi", timeoutSec: 5 }] } },
	},
	qwen: {
		path: ".qwen/settings.json",
		indent: 2,
		value: {
			model: { name: "qwen3-coder" },
			hooks: {
				PreToolUse: [{ matcher: "run_shell_command", hooks: [{ type: "command", name: "mine", command: "./guard.sh", timeout: 5 }] }],
			},
		},
	},
	droid: {
		path: ".factory/settings.json",
		indent: 2,
		value: {
			customModels: [{ model: "m", provider: "anthropic" }],
			hooks: { PreToolUse: [{ matcher: "Execute", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }] },
		},
	},
	auggie: {
		path: ".augment/settings.json",
		indent: 4,
		value: {
			model: "sonnet4.5",
			hooks: {
				PreToolUse: [{ matcher: "launch-process", hooks: [{ type: "command", command: "./guard.sh", timeout: 5000 }] }],
				Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
			},
		},
	},
};

const AGENT_LIST = Object.keys(EXISTING) as Agent[];

function seed(agent: Agent, dir = tempDir()): { dir: string; file: string; text: string } {
	const { path, value, indent } = EXISTING[agent];
	const file = join(dir, path);
	mkdirSync(dirname(file), { recursive: true });
	const text = `${JSON.stringify(value, null, indent)}\n`;
	writeFileSync(file, text);
	return { dir, file, text };
}

/** Our handlers in a parsed config, by event. */
function ours(agent: Agent, root: Record<string, unknown>): Record<string, unknown[]> {
	const spec = agentSpec(agent);
	const out: Record<string, unknown[]> = {};
	for (const [event, list] of Object.entries((root.hooks ?? {}) as Record<string, unknown>)) {
		if (!Array.isArray(list)) continue;
		const handlers = spec.layout === "grouped" ? list.flatMap((g) => g.hooks ?? []) : list;
		const found = handlers.filter((h: Record<string, unknown>) => isBridgeCommand(h[spec.commandKey], agent));
		if (found.length) out[event] = found;
	}
	return out;
}

describe.each(AGENT_LIST)("install/uninstall %s", (agent) => {
	test("round trip on a config holding other hooks: everything else kept, uninstall restores the bytes", async () => {
		const { dir, file, text } = seed(agent);
		const result = await installBridge(agent, { cwd: dir, command: CMD });
		expect(result.file).toBe(file);
		expect(result.written).toBe(true);
		const spec = agentSpec(agent);
		expect(result.changes.map((c) => c.event)).toEqual(spec.events.map((e) => e.name));
		const after = readFileSync(file, "utf8");
		const root = JSON.parse(after);
		expect(Object.keys(ours(agent, root))).toEqual(spec.events.map((e) => e.name));
		for (const handlers of Object.values(ours(agent, root))) expect(handlers).toHaveLength(1);
		// The user's own entries and keys are still there, first, unchanged.
		const before = EXISTING[agent].value as Record<string, Record<string, unknown[]>>;
		for (const [key, value] of Object.entries(before)) if (key !== "hooks") expect(root[key]).toEqual(value);
		for (const [event, list] of Object.entries(before.hooks ?? {}))
			if (Array.isArray(list)) expect(root.hooks[event].slice(0, list.length)).toEqual(list);
			else expect(root.hooks[event]).toEqual(list);
		// Written in the file's own indentation.
		const indent = EXISTING[agent].indent;
		expect(after).toBe(`${JSON.stringify(root, null, indent)}\n`);

		const removed = await uninstallBridge(agent, { cwd: dir });
		expect(removed.changes).toHaveLength(spec.events.length);
		expect(readFileSync(file, "utf8")).toBe(text);
	}, 60_000);

	test("idempotent: a second install changes nothing and writes nothing", async () => {
		const { dir, file } = seed(agent);
		await installBridge(agent, { cwd: dir, command: CMD });
		const first = readFileSync(file, "utf8");
		const again = await installBridge(agent, { cwd: dir, command: CMD });
		expect(again.changes).toEqual([]);
		expect(again.written).toBe(false);
		expect(readFileSync(file, "utf8")).toBe(first);
	}, 60_000);

	test("a fresh install creates the file; uninstall deletes the file it leaves empty", async () => {
		const dir = tempDir();
		const result = await installBridge(agent, { cwd: dir, command: CMD });
		const root = JSON.parse(readFileSync(result.file, "utf8"));
		if (agent === "cursor" || agent === "copilot") expect(root.version).toBe(1);
		expect(Object.keys(ours(agent, root))).toHaveLength(agentSpec(agent).events.length);
		const removed = await uninstallBridge(agent, { cwd: dir });
		expect(removed.removeFile).toBe(true);
		expect(existsSync(result.file)).toBe(false);
	}, 60_000);

	test("--user writes below home; bridgeStatus reports each level", async () => {
		const home = tempDir();
		const cwd = tempDir();
		expect(await bridgeStatus(agent, { cwd, home })).toMatchObject({ project: false, user: false });
		const result = await installBridge(agent, { scope: "user", home, cwd, command: CMD });
		expect(result.file.startsWith(home)).toBe(true);
		const status = await bridgeStatus(agent, { cwd, home });
		expect(status).toMatchObject({ project: false, user: true, errors: [] });
		expect(status.files.user).toBe(result.file);
	}, 60_000);
});

describe("install details", () => {
	test("the default command runs this checkout through a clean Bun; --command replaces the program", () => {
		const command = bridgeCommand("claude");
		const cli = join(import.meta.dir, "..", "..", "src", "cli.ts");
		expect(command).toBe(
			`${shellQuote(process.execPath)} --no-env-file --config=/dev/null ${shellQuote(cli)} bridge claude --installed-by=xcsh-hooks`,
		);
		expect(shellQuote("/my dir/it's")).toBe(`'/my dir/it'\\''s'`);
		expect(bridgeCommand("gemini", "xcsh-hooks")).toBe("xcsh-hooks bridge gemini --installed-by=xcsh-hooks");
		expect(() => bridgeCommand("gemini", " ")).toThrow("--command must not be empty");
		expect(isBridgeCommand("'/a b/xcsh-hooks' bridge codex", "codex")).toBe(true);
		expect(isBridgeCommand("xcsh-hooks bridge codex --verbose", "codex")).toBe(false);
		expect(isBridgeCommand("xcsh-hooks bridge claude", "codex")).toBe(false);
	}, 60_000);

	test("entry shapes: Claude guards block on failure, Gemini times in ms, Cursor fails closed, Copilot uses bash", async () => {
		const dir = tempDir();
		const read = async (agent: Agent) => JSON.parse(readFileSync((await installBridge(agent, { cwd: dir, command: CMD })).file, "utf8"));
		const claude = await read("claude");
		expect(claude.hooks.PreToolUse).toEqual([
			{
				matcher: "*",
				hooks: [
					{
						type: "command",
						command: entryCommand(`${CMD} bridge claude --installed-by=xcsh-hooks`, true),
						timeout: 60,
						onFailure: "block",
					},
				],
			},
		]);
		expect(claude.hooks.Stop).toEqual([
			{ hooks: [{ type: "command", command: entryCommand(`${CMD} bridge claude --installed-by=xcsh-hooks`, false), timeout: 60 }] },
		]);
		const gemini = await read("gemini");
		expect(gemini.hooks.BeforeTool[0].hooks[0]).toEqual({
			type: "command",
			name: "xcsh-hooks",
			command: entryCommand(`${CMD} bridge gemini --installed-by=xcsh-hooks`, true),
			timeout: 60000,
		});
		const cursor = await read("cursor");
		expect(cursor.hooks.preToolUse).toEqual([
			{ command: entryCommand(`${CMD} bridge cursor --installed-by=xcsh-hooks`, true), timeout: 60, failClosed: true },
		]);
		const copilot = await read("copilot");
		expect(copilot.hooks.PreToolUse).toEqual([
			{ type: "command", bash: entryCommand(`${CMD} bridge copilot --installed-by=xcsh-hooks`, true), timeoutSec: 60 },
		]);
	}, 60_000);

	test("subagent start/stop are registered where the agent has them (Claude, Codex, Copilot), with our bridge; uninstall takes them out", async () => {
		for (const agent of ["claude", "codex", "copilot"] as const) {
			const { dir, file, text } = seed(agent);
			await installBridge(agent, { cwd: dir, command: CMD });
			const root = JSON.parse(readFileSync(file, "utf8"));
			const found = ours(agent, root);
			for (const event of ["SubagentStart", "SubagentStop"]) expect(found[event]).toHaveLength(1);
			await uninstallBridge(agent, { cwd: dir });
			expect(readFileSync(file, "utf8")).toBe(text);
		}
		for (const agent of ["gemini", "qwen", "droid"] as const)
			expect(agentSpec(agent).events.map((e) => e.name)).not.toContain("SubagentStart");
	}, 60_000);

	test("an entry of ours with an old command is updated in place, not duplicated", async () => {
		const { dir, file } = seed("claude");
		await installBridge("claude", { cwd: dir, command: "/old/xcsh-hooks" });
		const moved = await installBridge("claude", { cwd: dir, command: CMD });
		expect(moved.changes.every((c) => c.action === "update")).toBe(true);
		const root = JSON.parse(readFileSync(file, "utf8"));
		expect(root.hooks.PreToolUse).toHaveLength(2);
		expect(root.hooks.PreToolUse[1].hooks[0].command).toBe(entryCommand(`${CMD} bridge claude --installed-by=xcsh-hooks`, true));
	}, 60_000);

	test("dry run computes the exact text and writes nothing", async () => {
		const { dir, file, text } = seed("codex");
		const dry = await installBridge("codex", { cwd: dir, command: CMD, dryRun: true });
		expect(dry.written).toBe(false);
		expect(readFileSync(file, "utf8")).toBe(text);
		await installBridge("codex", { cwd: dir, command: CMD });
		expect(readFileSync(file, "utf8")).toBe(dry.content as string);
		const fresh = tempDir();
		await installBridge("claude", { cwd: fresh, dryRun: true });
		expect(existsSync(join(fresh, ".claude"))).toBe(false);
	}, 60_000);

	test("an unparseable file is refused, naming it and the parse error, and left untouched", async () => {
		const dir = tempDir();
		const file = join(dir, ".claude/settings.json");
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, '{ "hooks": { // a comment\n');
		const error = await installBridge("claude", { cwd: dir, command: CMD }).catch((e) => e);
		expect(isInstallError(error)).toBe(true);
		expect(error.code).toBe("INSTALL_PARSE");
		expect(error.message).toContain(file);
		expect(error.message).toContain("not valid JSON");
		expect(readFileSync(file, "utf8")).toBe('{ "hooks": { // a comment\n');
		expect((await uninstallBridge("claude", { cwd: dir }).catch((e) => e)).code).toBe("INSTALL_PARSE");
	}, 60_000);

	test("a wrong shape is refused: hooks as an array, an event that is not a list", async () => {
		const dir = tempDir();
		const file = join(dir, ".codex/hooks.json");
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, '{"hooks": []}');
		await expect(installBridge("codex", { cwd: dir, command: CMD })).rejects.toThrow('"hooks" must be an object');
		writeFileSync(file, '{"hooks": {"Stop": {"hooks": []}}}');
		await expect(installBridge("codex", { cwd: dir, command: CMD })).rejects.toThrow("hooks.Stop must be an array");
		expect(readFileSync(file, "utf8")).toBe('{"hooks": {"Stop": {"hooks": []}}}');
	}, 60_000);

	test("a FIFO or a directory at the config path is refused without blocking", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, ".claude"), { recursive: true });
		const fifo = join(dir, ".claude/settings.json");
		expect(Bun.spawnSync(["mkfifo", fifo], { env: process.env }).exitCode).toBe(0);
		await expect(installBridge("claude", { cwd: dir, command: CMD })).rejects.toThrow("not a regular file (a FIFO)");
		expect(lstatSync(fifo).isFIFO()).toBe(true);
		mkdirSync(join(dir, ".cursor/hooks.json"), { recursive: true });
		await expect(installBridge("cursor", { cwd: dir, command: CMD })).rejects.toThrow("is a directory");
		expect((await bridgeStatus("claude", { cwd: dir, home: tempDir() })).errors[0]).toContain("FIFO");
	}, 60_000);

	test("the file mode is kept, and a symlinked config stays a link", async () => {
		const { dir, file } = seed("gemini");
		chmodSync(file, 0o640);
		await installBridge("gemini", { cwd: dir, command: CMD });
		expect(statSync(file).mode & 0o777).toBe(0o640);

		const real = join(tempDir(), "dotfiles-settings.json");
		writeFileSync(real, '{"model":"x"}\n');
		const project = tempDir();
		mkdirSync(join(project, ".claude"));
		symlinkSync(real, join(project, ".claude/settings.json"));
		await installBridge("claude", { cwd: project, command: CMD });
		expect(readlinkSync(join(project, ".claude/settings.json"))).toBe(real);
		expect(JSON.parse(readFileSync(real, "utf8")).hooks.Stop).toHaveLength(1);
		await uninstallBridge("claude", { cwd: project });
		expect(readFileSync(real, "utf8")).toBe('{"model":"x"}\n');
	}, 60_000);

	test("uninstall removes only our handler from a group the user shares with it", async () => {
		const dir = tempDir();
		const file = join(dir, ".claude/settings.json");
		mkdirSync(dirname(file), { recursive: true });
		const shared = {
			hooks: {
				PreToolUse: [
					{
						matcher: "*",
						hooks: [
							{ type: "command", command: "./mine.sh" },
							{ type: "command", command: `${CMD} bridge claude` },
						],
					},
				],
			},
		};
		writeFileSync(file, JSON.stringify(shared));
		const removed = await uninstallBridge("claude", { cwd: dir });
		expect(removed.changes).toEqual([{ action: "remove", event: "PreToolUse", matcher: "*", command: `${CMD} bridge claude` }]);
		expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
			hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "./mine.sh" }] }] },
		});
		expect((await uninstallBridge("claude", { cwd: dir })).changes).toEqual([]);
	}, 60_000);
});

describe("install cline: one executable per event", () => {
	test("writes marked executables that run the bridge; idempotent; uninstall removes exactly them", async () => {
		const dir = tempDir();
		const hooks = join(dir, ".clinerules", "hooks");
		mkdirSync(hooks, { recursive: true });
		writeFileSync(join(hooks, "TaskError"), "#!/bin/sh\necho mine\n");
		const result = await installBridge("cline", { cwd: dir, command: CMD });
		expect(result.file).toBe(hooks);
		expect(result.changes.map((c) => c.event)).toEqual(agentSpec("cline").events.map((e) => e.name));
		const pre = readFileSync(join(hooks, "PreToolUse"), "utf8");
		expect(pre).toContain(`set -- ${CMD} bridge cline ${INSTALL_MARKER} --event PreToolUse\n`);
		expect(statSync(join(hooks, "PreToolUse")).mode & 0o111).not.toBe(0);
		expect((await installBridge("cline", { cwd: dir, command: CMD })).changes).toEqual([]);
		expect(await bridgeStatus("cline", { cwd: dir, home: tempDir() })).toMatchObject({ project: true, user: false });
		const removed = await uninstallBridge("cline", { cwd: dir });
		expect(removed.changes).toHaveLength(agentSpec("cline").events.length);
		expect(existsSync(join(hooks, "PreToolUse"))).toBe(false);
		expect(readFileSync(join(hooks, "TaskError"), "utf8")).toBe("#!/bin/sh\necho mine\n");
	});

	test("a hook file of the user's at one of the names is refused, nothing written; --dry-run and --user", async () => {
		const dir = tempDir();
		const hooks = join(dir, ".clinerules", "hooks");
		mkdirSync(hooks, { recursive: true });
		writeFileSync(join(hooks, "PostToolUse"), "#!/bin/sh\necho mine\n");
		await expect(installBridge("cline", { cwd: dir, command: CMD })).rejects.toThrow("not ours");
		expect(existsSync(join(hooks, "PreToolUse"))).toBe(false);
		const dry = await installBridge("cline", { cwd: tempDir(), command: CMD, dryRun: true });
		expect(dry.changes.length).toBeGreaterThan(0);
		expect(existsSync(dry.file)).toBe(false);
		const home = tempDir();
		const user = await installBridge("cline", { scope: "user", home, command: CMD });
		expect(user.file).toBe(join(home, ".cline", "hooks"));
		expect(existsSync(join(home, ".cline", "hooks", "PreToolUse"))).toBe(true);
	});
});
