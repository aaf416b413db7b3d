import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "pathe";
import { CapabilityRegistry } from "../../src/discovery/capability/index.ts";
import { defaultRegistry, loadCapability } from "../../src/discovery/register.ts";
import type { Hook } from "../../src/discovery/index.ts";
import { classifyCodexHook, registerHookDiscovery } from "../../src/discovery/index.ts";
import { useTempHomeAndProject, writeTree } from "./_tree.ts";

const brief = (h: Hook) => `${h._source.provider}/${h.level}/${h.type}:${h.tool}:${h.name}`;

function load(cwd: string, options: { disabledExtensions?: string[]; excludeProviders?: string[] } = {}) {
	return registerHookDiscovery(new CapabilityRegistry()).loadCapability<Hook>("hooks", { cwd, ...options });
}

describe("hook providers", () => {
	const { home, project } = useTempHomeAndProject();

	test("native: pre/post scripts and modules dropped directly in hooks/, project before user", async () => {
		writeTree(project(), {
			".xcsh/hooks/pre/bash.sh": "#!/bin/sh",
			".xcsh/hooks/post/*.py": "",
			".xcsh/hooks/guard.ts": "export default () => {}",
			".xcsh/hooks/audit.mjs": "",
			".xcsh/hooks/notes.md": "",
			".xcsh/hooks/run.sh": "",
		});
		writeTree(home(), {
			".xcsh/agent/hooks/pre/read.sh": "",
			".xcsh/agent/hooks/mine.js": "",
		});
		const result = await load(project());
		expect(result.items.map(brief)).toEqual([
			"native/project/pre:bash:bash",
			"native/project/post:*:*",
			"native/project/pre:*:audit",
			"native/project/pre:*:guard",
			"native/user/pre:read:read",
			"native/user/pre:*:mine",
		]);
		expect(result.warnings).toEqual([]);
		const guard = result.items.find((h) => h.name === "guard");
		expect(guard).toEqual({
			name: "guard",
			path: join(project(), ".xcsh/hooks/guard.ts"),
			type: "pre",
			tool: "*",
			level: "project",
			_source: { provider: "native", providerName: "xcsh", level: "project" },
		});
	});

	test("claude: pre/post folders of project and home", async () => {
		writeTree(project(), { ".claude/hooks/pre/write.sh": "", ".claude/hooks/pre/*": "" });
		writeTree(home(), { ".claude/hooks/post/edit.sh": "", ".claude/hooks/guard.ts": "" });
		const result = await load(project());
		expect(result.items.map(brief)).toEqual(["claude/project/pre:*:*", "claude/project/pre:write:write", "claude/user/post:edit:edit"]);
	});

	test("codex: pre-<tool>/post-<tool> names, anything else is pre for all tools; only .ts/.js", async () => {
		writeTree(project(), {
			".codex/hooks/pre-bash.ts": "",
			".codex/hooks/post-read.js": "",
			".codex/hooks/policy.ts": "",
			".codex/hooks/pre-x.sh": "",
		});
		writeTree(home(), { ".codex/hooks/post-*.ts": "" });
		const result = await load(project());
		expect(result.items.map(brief)).toEqual([
			"codex/project/pre:*:policy",
			"codex/project/post:read:post-read",
			"codex/project/pre:bash:pre-bash",
			"codex/user/post:*:post-*",
		]);
		expect(classifyCodexHook("pre-")).toEqual({ type: "pre", tool: "*" });
		expect(classifyCodexHook("pre-web-fetch")).toEqual({ type: "pre", tool: "web-fetch" });
	});

	test("hidden, *.test.* and *.d.ts files are skipped everywhere", async () => {
		writeTree(project(), {
			".xcsh/hooks/.secret.ts": "",
			".xcsh/hooks/guard.test.ts": "",
			".xcsh/hooks/types.d.ts": "",
			".xcsh/hooks/pre/.bash.sh": "",
			".xcsh/hooks/pre/bash.test.sh": "",
			".codex/hooks/pre-bash.test.ts": "",
			".codex/hooks/env.d.ts": "",
		});
		expect((await load(project())).all).toEqual([]);
	});

	test("the same hook in native and claude: claude's is shadowed; the project shadows the user", async () => {
		writeTree(project(), { ".xcsh/hooks/pre/bash.sh": "", ".claude/hooks/pre/bash.sh": "" });
		writeTree(home(), { ".xcsh/agent/hooks/pre/bash.sh": "" });
		const result = await load(project());
		expect(result.items.map(brief)).toEqual(["native/project/pre:bash:bash"]);
		expect(result.all.map((h) => [brief(h), h._shadowed ?? false])).toEqual([
			["native/project/pre:bash:bash", false],
			["native/user/pre:bash:bash", true],
			["claude/project/pre:bash:bash", true],
		]);
		const withoutNative = await load(project(), { excludeProviders: ["native"] });
		expect(withoutNative.items.map(brief)).toEqual(["claude/project/pre:bash:bash"]);
	});

	test("disabledExtensions uses hook:<type>:<tool>:<name>", async () => {
		writeTree(project(), { ".xcsh/hooks/pre/bash.sh": "", ".xcsh/hooks/guard.ts": "" });
		const result = await load(project(), { disabledExtensions: ["hook:pre:*:guard"] });
		expect(result.items.map((h) => h.name)).toEqual(["bash"]);
	});

	test("symlinked hook files are found at their link path; broken links are named in warnings", async () => {
		writeTree(home(), { "shared/real.sh": "" });
		mkdirSync(join(project(), ".xcsh/hooks/pre"), { recursive: true });
		symlinkSync(join(home(), "shared/real.sh"), join(project(), ".xcsh/hooks/pre/bash.sh"));
		symlinkSync(join(home(), "shared/gone.sh"), join(project(), ".xcsh/hooks/pre/read.sh"));
		const result = await load(project());
		expect(result.items.map((h) => h.path)).toEqual([join(project(), ".xcsh/hooks/pre/bash.sh")]);
		expect(result.warnings).toEqual([`[xcsh] ${join(project(), ".xcsh/hooks/pre/read.sh")}: dangling symlink, skipped`]);
	});

	test("HOME is read at load time", async () => {
		writeTree(home(), { ".claude/hooks/pre/bash.sh": "" });
		expect((await load(project())).items).toHaveLength(1);
		process.env.HOME = project();
		expect((await load(project())).items).toHaveLength(0);
	});

	test("validation still catches a hook file that disappears or is made by hand", async () => {
		const registry = registerHookDiscovery(new CapabilityRegistry());
		const path = join(project(), "gone.sh");
		registry.registerProvider<Hook>("hooks", {
			id: "manual",
			displayName: "Manual",
			description: "",
			priority: 1,
			load: () => ({
				items: [
					{
						name: "gone",
						path,
						type: "pre",
						tool: "*",
						level: "user",
						_source: { provider: "manual", providerName: "Manual", level: "user" },
					},
				],
			}),
		});
		const result = await registry.loadCapability<Hook>("hooks", { cwd: project() });
		expect(result.items).toEqual([]);
		expect(result.warnings).toEqual([`[Manual] Invalid hook ${path}: file does not exist`]);
	});

	test("importing src/discovery registers hooks on the default registry, idempotently", async () => {
		writeTree(project(), { ".codex/hooks/pre-bash.ts": "" });
		registerHookDiscovery();
		registerHookDiscovery(defaultRegistry);
		const result = await loadCapability<Hook>("hooks", { cwd: project() });
		expect(result.providers.map((p) => [p.id, p.priority])).toEqual([
			// The root-owned system folder an organisation installs (/etc/xcsh/hooks): first, above everything.
			["system", 1000],
			["native", 100],
			["claude", 80],
			["codex", 70],
			// The agents' own configs (src/agent-hooks): command hook entries of Claude Code, Codex, Gemini CLI, Qwen Code, Factory Droid, Cursor; Cline's hook files.
			["claude-settings", 60],
			["codex-hooks", 55],
			["gemini-settings", 50],
			["qwen-settings", 48],
			["droid-settings", 47],
			["cursor-hooks", 45],
			["cline-hooks", 42],
		]);
		expect(result.items.map(brief)).toEqual(["codex/project/pre:bash:pre-bash"]);
	});

	// How fast is the bench's job (`bun run bench -- --only discovery`); here only that all are found.
	test("discovers 1,000 hook files", async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 1000; i++) files[`.xcsh/hooks/pre/tool${i}.sh`] = "";
		writeTree(project(), files);
		const registry = registerHookDiscovery(new CapabilityRegistry());
		await registry.loadCapability("hooks", { cwd: project() }); // warm up
		const result = await registry.loadCapability<Hook>("hooks", { cwd: project() });
		expect(result.items).toHaveLength(1000);
		rmSync(join(project(), ".xcsh"), { recursive: true });
	});
});
