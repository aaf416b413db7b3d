import { describe, expect, test } from "bun:test";
import { chmodSync } from "node:fs";
import { join } from "pathe";
import { loadSettings } from "../../src/discovery/index.ts";
import { isRoot, useTempHomeAndProject, writeTree } from "./_tree.ts";

const USER_FILE = ".xcsh/agent/settings.json";
const PROJECT_FILE = ".xcsh/settings.json";

describe("loadSettings", () => {
	const { home, project } = useTempHomeAndProject();

	test("no files: empty settings, no warnings, no sources", async () => {
		expect(await loadSettings(project())).toEqual({ settings: {}, warnings: [], sources: {}, hookPaths: [], layers: {} });
	});

	test("project over user: scalars from the project, arrays concatenated (project first) without duplicates", async () => {
		writeTree(home(), {
			[USER_FILE]: JSON.stringify({
				hookTimeoutMs: 1000,
				disabledProviders: ["codex"],
				disabledExtensions: ["hook:pre:bash:bash", "hook:pre:*:a"],
				theme: "dark",
			}),
		});
		writeTree(project(), {
			[PROJECT_FILE]: JSON.stringify({ hookTimeoutMs: 50, disabledExtensions: ["hook:pre:*:b", "hook:pre:*:a"] }),
		});
		const result = await loadSettings(project());
		expect(result.settings).toEqual({
			hookTimeoutMs: 50,
			disabledProviders: ["codex"],
			disabledExtensions: ["hook:pre:*:b", "hook:pre:*:a", "hook:pre:bash:bash"],
			theme: "dark",
		} as typeof result.settings);
		expect(result.sources).toEqual({ project: join(project(), PROJECT_FILE), user: join(home(), USER_FILE) });
		expect(result.warnings).toEqual([]);
	});

	test("hooks: project paths resolve against cwd, user paths against home, each tagged with its level", async () => {
		writeTree(home(), { [USER_FILE]: JSON.stringify({ hooks: ["mine.ts", "~/other.ts", "/abs/shared.ts"] }) });
		writeTree(project(), { [PROJECT_FILE]: JSON.stringify({ hooks: ["tools/guard.ts", "/abs/shared.ts"] }) });
		const result = await loadSettings(project());
		expect(result.hookPaths).toEqual([
			{ path: join(project(), "tools/guard.ts"), level: "project" },
			{ path: "/abs/shared.ts", level: "user" }, // listed by both: the user vouched for it
			{ path: join(home(), "mine.ts"), level: "user" },
			{ path: join(home(), "other.ts"), level: "user" },
		]);
		expect(result.settings.hooks).toEqual(result.hookPaths.map((h) => h.path));
	});

	test("invalid JSON: a warning naming the file, which is ignored; the other file still applies", async () => {
		writeTree(project(), { [PROJECT_FILE]: "{ hooks: [" });
		writeTree(home(), { [USER_FILE]: JSON.stringify({ hookTimeoutMs: 10 }) });
		const result = await loadSettings(project());
		expect(result.settings).toEqual({ hookTimeoutMs: 10 });
		expect(result.sources).toEqual({ user: join(home(), USER_FILE) });
		expect(result.warnings).toHaveLength(1);
		expect(result.warnings[0]).toStartWith(`${join(project(), PROJECT_FILE)}: invalid JSON`);
	});

	test("a file that is not an object is ignored with a warning", async () => {
		writeTree(home(), { [USER_FILE]: "[1, 2]" });
		const result = await loadSettings(project());
		expect(result.warnings).toEqual(["~/.xcsh/agent/settings.json: must be a JSON object, file ignored"]);
		expect(result.settings).toEqual({});
	});

	test("a key of the wrong type: a warning naming file and key; only that key is ignored", async () => {
		writeTree(home(), {
			[USER_FILE]: JSON.stringify({ hooks: "guard.ts", hookTimeoutMs: -1, disabledProviders: ["claude"] }),
		});
		writeTree(project(), { [PROJECT_FILE]: JSON.stringify({ disabledExtensions: [1], hookTimeoutMs: 2.5 }) });
		const result = await loadSettings(project());
		expect(result.warnings).toEqual([
			`${join(project(), PROJECT_FILE)}: disabledExtensions must be an array of strings, key ignored`,
			`${join(project(), PROJECT_FILE)}: hookTimeoutMs must be an integer ≥ 0, key ignored`,
			"~/.xcsh/agent/settings.json: hooks must be an array of strings, key ignored",
			"~/.xcsh/agent/settings.json: hookTimeoutMs must be an integer ≥ 0, key ignored",
		]);
		expect(result.settings).toEqual({ disabledProviders: ["claude"] });
		expect(result.hookPaths).toEqual([]);
	});

	test("an unreadable file is a warning, never a throw", async () => {
		writeTree(project(), { [PROJECT_FILE]: "{}" });
		const file = join(project(), PROJECT_FILE);
		chmodSync(file, 0o000);
		try {
			const result = await loadSettings(project());
			if (isRoot) expect(result.warnings).toEqual([]);
			else expect(result.warnings).toEqual([`${file}: cannot read (EACCES), ignored`]);
		} finally {
			chmodSync(file, 0o644);
		}
	});

	test("a settings path that is a directory is a warning", async () => {
		writeTree(project(), { [`${PROJECT_FILE}/x`]: "" });
		const result = await loadSettings(project());
		expect(result.warnings).toHaveLength(1);
		expect(result.warnings[0]).toStartWith(`${join(project(), PROJECT_FILE)}: cannot read`);
	});
});
