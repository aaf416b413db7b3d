import { expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { findProject, hookWatchTargets, PROJECT_FOLDERS } from "../../src/discovery/project.ts";
import { hookProviders } from "../../src/discovery/register.ts";
import { projectSettingsPath } from "../../src/discovery/settings.ts";
import { tempDir, writeFiles } from "../_helpers.ts";

const root = () => realpathSync(tempDir("xcsh-project-"));

test("PROJECT_FOLDERS holds the first folder of every project-level place a hook provider reads", () => {
	const probe = "/xcsh-project-probe";
	const folders = new Set(
		[
			projectSettingsPath(probe),
			...hookProviders().flatMap((p) => {
				const places = p.watch?.({ cwd: probe, home: "/xcsh-home-probe" });
				return [...(places?.dirs ?? []), ...(places?.files ?? [])];
			}),
		]
			.filter((path) => path.startsWith(`${probe}/`))
			.map((path) => path.slice(probe.length + 1).split("/")[0] as string),
	);
	// A provider (an agent) reading a project folder missing here would go unfound from a subfolder: add it to PROJECT_FOLDERS.
	expect([...folders].sort()).toEqual([...PROJECT_FOLDERS].sort());
});

test("every folder holding a project place up to the git root is a layer, nearest first; the root is the nearest", () => {
	const dir = root();
	writeFiles(dir, {
		".xcsh/settings.json": "{}",
		"repo/.git/HEAD": "",
		"repo/.claude/settings.json": "{}",
		"repo/packages/a/.xcsh/hooks/x.ts": "",
		"repo/packages/a/src/deep/f.ts": "",
	});
	const repo = join(dir, "repo");
	const a = join(repo, "packages", "a");
	expect(findProject(join(a, "src", "deep"), { home: join(dir, "home") })).toEqual({
		start: join(a, "src", "deep"),
		root: a,
		layers: [a, repo],
		gitRoot: repo,
		by: "project",
	});
	// No project place below the git root: the repository's root; none at all (no git either): the folder itself.
	mkdirSync(join(dir, "plain", "sub"), { recursive: true });
	writeFiles(dir, { "bare/.git": "gitdir: elsewhere\n", "bare/src/f.ts": "" });
	expect(findProject(join(dir, "bare", "src"), { home: join(dir, "home") })).toMatchObject({ root: join(dir, "bare"), by: "git" });
	expect(findProject(join(dir, "plain", "sub"), { home: dir })).toMatchObject({
		root: join(dir, "plain", "sub"),
		layers: [join(dir, "plain", "sub")],
		by: "start",
	});
});

test("home is never climbed into, and home itself as the start stays its own folder", () => {
	const home = root();
	writeFiles(home, { ".xcsh/agent/settings.json": "{}", ".claude/settings.json": "{}", "work/x/f.ts": "" });
	expect(findProject(join(home, "work", "x"), { home })).toMatchObject({ root: join(home, "work", "x"), by: "start" });
	expect(findProject(home, { home })).toMatchObject({ root: home, layers: [home] });
	// A sandbox home given for discovery (the demo's) does not lift the bound of the user's own.
	const user = process.env.HOME as string;
	writeFiles(user, { ".clinerules/rules.md": "", "xcsh-project-sandbox/w/f.ts": "" });
	try {
		expect(findProject(join(user, "xcsh-project-sandbox", "w"), { home: join(user, "xcsh-project-sandbox", "w", ".home") })).toMatchObject({
			by: "start",
		});
	} finally {
		rmSync(join(user, ".clinerules"), { recursive: true, force: true });
		rmSync(join(user, "xcsh-project-sandbox"), { recursive: true, force: true });
	}
});

test("a server watches every layer's places and settings files", () => {
	const dir = root();
	writeFiles(dir, { ".git/HEAD": "", ".xcsh/settings.json": "{}", "sub/.codex/hooks.json": "{}", "sub/deep/f.ts": "" });
	const targets = hookWatchTargets(join(dir, "sub", "deep"), join(dir, "home"));
	expect(targets.dirs).toEqual(expect.arrayContaining([join(dir, ".xcsh", "hooks"), join(dir, "sub", ".xcsh", "hooks")]));
	expect(targets.files).toEqual(
		expect.arrayContaining([
			join(dir, ".xcsh", "settings.json"),
			join(dir, "sub", ".xcsh", "settings.json"),
			join(dir, "sub", ".codex", "hooks.json"),
		]),
	);
});
