/**
 * The suite never touches the developer's HOME (issue 18, item 10). Bun hands a child started without
 * `env` the environment Bun started with, not `process.env` as test/preload.ts changed it, so such a
 * child (a CLI run by `examples.test.ts`, `serve/http.test.ts`…) wrote `~/.xcsh/agent/decisions.jsonl`
 * and a session file into the real home. The preload now refuses such a spawn, `execCommand` hands its
 * child `process.env` as it is, and the real homes' `.xcsh` is compared before and after the run.
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { execCommand } from "../../src/exec/exec-command.ts";
import { watchHomes } from "../_home-guard.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const childHome = (env: Record<string, string | undefined>) =>
	Bun.spawnSync(["sh", "-c", 'printf %s "$HOME"'], { env, stdout: "pipe" }).stdout.toString();

describe("a test's child never sees the real HOME", () => {
	test("a spawn without env, with an env lacking HOME, or with the real HOME is refused, naming the fix", () => {
		expect(() => Bun.spawnSync(["true"])).toThrow(/test isolation: .*no `env`.*minimalEnv\(home\)/);
		expect(() => Bun.spawnSync(["true"], { env: { PATH: process.env.PATH ?? "" } })).toThrow(/without HOME/);
		expect(() => Bun.spawn({ cmd: ["true"], env: { ...process.env, HOME: userInfo().homedir } })).toThrow(/is a real home/);
	});

	test("a spawn with env gets the temporary HOME it names", () => {
		expect(childHome(process.env)).toBe(process.env.HOME as string);
		const home = privateHome();
		expect(childHome({ PATH: process.env.PATH ?? "", HOME: home })).toBe(home);
	});

	test("execCommand's child inherits process.env as it is now, not as the process started", async () => {
		const result = await execCommand("sh", ["-c", 'printf %s "$HOME"'], tempDir());
		expect(result.stdout).toBe(process.env.HOME as string);
	}, 60_000);
});

describe("the check of the real homes' .xcsh after the run", () => {
	test("an appended decision line or a new session file is reported; an untouched tree is not", () => {
		const home = privateHome();
		writeFiles(home, { ".xcsh/agent/decisions.jsonl": '{"decision":"allow"}\n' });
		expect(() => watchHomes([home]).check()).not.toThrow();
		const watch = watchHomes([home]);
		appendFileSync(join(home, ".xcsh/agent/decisions.jsonl"), '{"decision":"deny"}\n');
		writeFiles(home, { ".xcsh/agent/sessions/claude/http-test-session.jsonl": "{}\n" });
		expect(() => watch.check()).toThrow(/changed agent\/decisions\.jsonl[\s\S]*added agent\/sessions\/claude\/http-test-session\.jsonl/);
	});
});
