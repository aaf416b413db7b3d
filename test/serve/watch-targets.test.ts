import { expect, test } from "bun:test";
import { join } from "node:path";
import { discoveryTargets } from "../../src/serve/watch.ts";

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
