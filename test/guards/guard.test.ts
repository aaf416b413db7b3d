import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, gitPack, type ShellRule } from "../../src/guards/index.ts";

const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "guard-")));
const CLI = join(import.meta.dir, "..", "..", "src", "cli.ts");

test("a pack switched off, a rule switched off, a path allowed, a rule added", async () => {
	const noGit = createShellGuard({ disable: ["git"] });
	expect((await noGit.decide("git reset --hard", { cwd: project })).block).toBe(false);
	expect((await noGit.decide("rm -rf src", { cwd: project })).block).toBe(true);

	const noBranchRule = createShellGuard({ disable: ["git/branch-force-delete"] });
	expect((await noBranchRule.decide("git branch -D x", { cwd: project })).block).toBe(false);
	expect((await noBranchRule.decide("git reset --hard", { cwd: project })).rule).toBe("git/reset-hard");

	const allowed = createShellGuard({ allowPaths: ["build"] });
	expect((await allowed.decide("rm -rf build/", { cwd: project })).block).toBe(false);
	expect((await allowed.decide("rm -rf ./build/cache", { cwd: project })).block).toBe(false);
	expect((await allowed.decide("rm -rf build/../src", { cwd: project })).block).toBe(true);
	expect((await allowed.decide("rm -rf build*", { cwd: project })).block).toBe(true);

	const noDeploy: ShellRule = {
		id: "team/no-deploy",
		reason: "deploys go through CI",
		programs: ["make"],
		test: (c) => c.args.includes("deploy"),
	};
	const custom = createShellGuard({ rules: [noDeploy] });
	expect(await custom.decide("sudo make deploy", { cwd: project })).toMatchObject({
		block: true,
		rule: "team/no-deploy",
		reason: "deploys go through CI",
	});
	expect((await custom.decide("make test", { cwd: project })).block).toBe(false);

	const onlyGit = createShellGuard({ packs: [gitPack] });
	expect((await onlyGit.decide("rm -rf /", { cwd: project })).block).toBe(false);
	expect(() => createShellGuard({ packs: ["nope" as "git"] })).toThrow(/unknown pack.*packs: shell, git/);
});

test("fails closed on what it cannot parse, unless the hook relaxes it", async () => {
	const strict = createShellGuard();
	expect(await strict.decide("echo 'oops", { cwd: project })).toMatchObject({ block: true, rule: "parse/error" });
	expect((await strict.decide("echo 'oops", { cwd: project })).reason).toContain("cannot parse");
	const relaxed = createShellGuard({ onParseError: "allow" });
	expect((await relaxed.decide("echo 'oops", { cwd: project })).block).toBe(false);
	expect((await relaxed.decide("rm -rf / && echo 'oops", { cwd: project })).block).toBe(false);
	expect(await strict.decide(42 as unknown as string)).toMatchObject({ block: true, rule: "input/not-text" });
});

test("the handler checks only its tools, and names the rule in its reason", async () => {
	const guard = createShellGuard({ tools: ["bash", "shell"] });
	const ctx = { cwd: project } as Parameters<typeof guard.handler>[1];
	const call = (toolName: string, command: string) =>
		guard.handler({ type: "tool_call", toolCallId: "1", toolName, input: { command } } as never, ctx);
	expect(await call("bash", "git clean -fd")).toEqual({ block: true, reason: "git clean -f deletes untracked files [git/clean-force]" });
	expect(await call("shell", "git clean -fd")).toMatchObject({ block: true });
	expect(await call("write", "git clean -fd")).toBeUndefined();
	expect(await call("bash", "git clean -n")).toBeUndefined();
});

test("the commands it saw, after unwrapping, with what ran them", async () => {
	const decision = await createShellGuard().decide(`sudo env -i bash -c "cd /tmp/x && rm -rf build" | tee log`, { cwd: project });
	expect(decision.block).toBe(false);
	expect(decision.commands.map((c) => [c.via.join(">"), c.program, c.args.join(" "), c.cwd])).toEqual([
		["sudo>env", "bash", "-c cd /tmp/x && rm -rf build", project],
		["sudo>env>bash -c", "cd", "/tmp/x", project],
		["sudo>env>bash -c", "rm", "-rf build", "/tmp/x"],
		["", "tee", "log", project],
	]);
});

test("`xcsh-hooks guard explain` prints the unwrapped commands and the deciding rule", async () => {
	const run = async (...args: string[]) => {
		const proc = Bun.spawn([process.execPath, CLI, "guard", "explain", ...args], {
			cwd: project,
			stdout: "pipe",
			stderr: "pipe",
			env: { ...process.env, HOME: project },
		});
		const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
		return { code, stdout, stderr };
	};
	const blocked = await run('nohup bash -c "git push origin +main"');
	expect(blocked.code).toBe(2);
	expect(blocked.stdout).toContain("git push origin +main  (via nohup > bash -c)");
	expect(blocked.stdout).toContain("blocked by git/force-push: a +refspec force-pushes without --force-with-lease");
	const allowed = await run("echo 'rm -rf /'");
	expect(allowed.code).toBe(0);
	expect(allowed.stdout).toContain('echo "rm -rf /"');
	expect(allowed.stdout).toContain("allowed: no rule matched");
	const withPack = await run("kubectl delete ns prod", "--packs", "shell,containers", "--json");
	expect(JSON.parse(withPack.stdout)).toMatchObject({ block: true, rule: "containers/kubectl-delete" });
	const bad = await run("ls", "--packs", "gti");
	expect(bad.code).toBe(1);
	expect(bad.stderr).toContain('unknown pack "gti"');
}, 60_000);
