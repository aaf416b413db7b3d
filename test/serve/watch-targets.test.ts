import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoveryTargets, watchHookFiles } from "../../src/serve/watch.ts";

test("serve watches what every discovery provider reads: hook folders and the agents' config files", () => {
	const cwd = "/project";
	const home = process.env.HOME as string;
	const { dirs, files } = discoveryTargets(cwd);
	expect(dirs).toEqual(
		expect.arrayContaining([
			join(cwd, ".xcsh", "hooks"),
			join(cwd, ".xcsh", "hooks", "pre"),
			join(home, ".claude", "hooks", "post"),
			join(cwd, ".codex", "hooks"),
		]),
	);
	expect(files).toEqual(
		expect.arrayContaining([
			join(cwd, ".xcsh", "settings.json"),
			join(home, ".xcsh", "agent", "settings.json"),
			join(cwd, ".claude", "settings.json"),
			join(cwd, ".claude", "settings.local.json"),
			join(cwd, ".codex", "hooks.json"),
			join(home, ".gemini", "settings.json"),
			join(cwd, ".cursor", "hooks.json"),
		]),
	);
});

test("a change is one of a watched entry: a new file beside the settings is none, the settings file is one", async () => {
	const root = mkdtempSync(join(tmpdir(), "xcsh-watch-"));
	const agentDir = join(root, "agent");
	mkdirSync(agentDir);
	const settings = join(agentDir, "settings.json");
	const hooks = join(root, "hooks");
	mkdirSync(hooks);
	const watcher = watchHookFiles({ files: [settings, join(root, "missing", "settings.json")], dirs: [hooks] }, 10, () => {});
	try {
		const since = Date.now() + 50; // past the slack for timestamps taken before
		await Bun.sleep(60);
		// What the bridge and the server write beside the settings: the decision log, the sessions folder.
		writeFileSync(join(agentDir, "decisions.jsonl"), "{}\n");
		mkdirSync(join(agentDir, "sessions"));
		expect(watcher.changedSince(since)).toBe(false);
		writeFileSync(settings, "{}\n");
		expect(watcher.changedSince(since)).toBe(true);
	} finally {
		watcher.close();
	}
	const later = watchHookFiles({ files: [join(root, "missing", "settings.json")], dirs: [hooks] }, 10, () => {});
	try {
		const since = Date.now() + 50;
		await Bun.sleep(60);
		writeFileSync(join(hooks, "new.ts"), "export default () => {};\n"); // a discovery folder: any entry
		expect(later.changedSince(since)).toBe(true);
	} finally {
		later.close();
	}
	const missing = watchHookFiles({ files: [join(root, "missing", "settings.json")], dirs: [] }, 10, () => {});
	try {
		const since = Date.now() + 50;
		await Bun.sleep(60);
		mkdirSync(join(root, "missing")); // the folder of a target that was not there: its arrival counts
		expect(missing.changedSince(since)).toBe(true);
	} finally {
		missing.close();
	}
});
