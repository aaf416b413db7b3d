import { expect, test } from "bun:test";
import { mkdtempSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, type RulePack, type ShellRule } from "../../src/guards/index.ts";
import { observeShellGuards } from "../../src/guards/observe.ts";
import type { ShellExplanation } from "../../src/guards/types.ts";

const project = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "guard-verdicts-")));

/** `make deploy` asks (the rule's own verdict); `make release` asks with its own reason; `make nuke` blocks. */
const deploy: ShellRule = {
	id: "team/deploy",
	reason: "deploys need a yes",
	programs: ["make"],
	verdict: "ask",
	test: (c) => c.args[0] === "deploy",
};
const release: ShellRule = {
	id: "team/release",
	reason: "unused",
	programs: ["make"],
	test: (c) => (c.args[0] === "release" ? { verdict: "ask", reason: `a release of ${c.args[1] ?? "everything"}` } : false),
};
const nuke: ShellRule = {
	id: "team/nuke",
	reason: "nukes are never run by an agent",
	programs: ["make"],
	test: (c) => c.args[0] === "nuke",
};
const team: RulePack = { name: "team", description: "the team's make targets", rules: [deploy, release, nuke] };
const guard = createShellGuard({ packs: [team] });
const decide = (command: string) => guard.decide(command, { cwd: project });

test("a rule may ask instead of block: decide says which, with the rule and the reason", async () => {
	expect(await decide("make deploy")).toMatchObject({ verdict: "ask", block: true, rule: "team/deploy", reason: "deploys need a yes" });
	expect(await decide("make release web")).toMatchObject({ verdict: "ask", rule: "team/release", reason: "a release of web" });
	expect(await decide("make nuke")).toMatchObject({ verdict: "block", block: true, rule: "team/nuke" });
	expect(await decide("make test")).toMatchObject({ verdict: "allow", block: false });
	expect((await decide("make test")).rule).toBeUndefined();
});

test("over a line, block beats ask beats allow, whichever comes first", async () => {
	for (const line of ["make deploy; make nuke", "make nuke && make deploy", "make test | make deploy || sudo make nuke"])
		expect(await decide(line)).toMatchObject({ verdict: "block", rule: "team/nuke" });
	for (const line of ["make test && make deploy", "make deploy; make test", "bash -c 'make deploy'"])
		expect(await decide(line)).toMatchObject({ verdict: "ask", rule: "team/deploy" });
	// The analyzer's refusals block, whatever else asks.
	expect(await decide("make deploy; echo 'oops")).toMatchObject({ verdict: "block", rule: "parse/error" });
	// A look-alike of a blocked command blocks a line that only asked as written.
	expect(await createShellGuard().decide("git push -f origin feature; ｒｍ -rf /", { cwd: project })).toMatchObject({
		verdict: "block",
	});
});

test("a rule's answer that is not an ask blocks (fail closed)", async () => {
	const odd: ShellRule = { id: "x/odd", reason: "odd", test: () => ({ verdict: "allow" }) as never };
	const oddVerdict: ShellRule = { id: "x/odd-verdict", reason: "odd verdict", verdict: "allow" as never, test: () => true };
	expect(await createShellGuard({ packs: [], rules: [odd] }).decide("ls")).toMatchObject({ verdict: "block", rule: "x/odd" });
	expect(await createShellGuard({ packs: [], rules: [oddVerdict] }).decide("ls")).toMatchObject({ verdict: "block" });
});

test("the hook changes a verdict by pack or rule id (the rule id wins); a wrong name or value is an error", async () => {
	const asks = createShellGuard({ verdicts: { git: "ask", "git/clean-force": "block" } });
	expect(await asks.decide("git reset --hard", { cwd: project })).toMatchObject({ verdict: "ask", rule: "git/reset-hard" });
	expect(await asks.decide("git clean -fd", { cwd: project })).toMatchObject({ verdict: "block", rule: "git/clean-force" });
	expect(await asks.decide("rm -rf /", { cwd: project })).toMatchObject({ verdict: "block" });
	const strict = createShellGuard({ verdicts: { "git/force-push-branch": "block" } });
	expect(await strict.decide("git push -f origin feature", { cwd: project })).toMatchObject({ verdict: "block" });
	expect(await createShellGuard({ packs: [team], verdicts: { "team/deploy": "block" } }).decide("make deploy")).toMatchObject({
		verdict: "block",
	});
	expect(() => createShellGuard({ verdicts: { gti: "ask" } })).toThrow('verdicts: no pack or rule "gti"');
	// A verdict for a rule switched off is no error: the hook may switch it on again later.
	expect(createShellGuard({ disable: ["git/clean-force"], verdicts: { "git/clean-force": "ask" } }).rules.length).toBeGreaterThan(0);
	expect(() => createShellGuard({ verdicts: { git: "allow" as never } })).toThrow('"git" must be "block" or "ask"');
});

test("git: a force push to a feature branch asks; to a shared branch, the current one or a computed one it blocks", async () => {
	const git = createShellGuard();
	const verdict = async (line: string) => (await git.decide(line, { cwd: project })).verdict;
	for (const line of [
		"git push -f origin feature",
		"git push origin +topic/x",
		"git push --force origin HEAD:fix-1",
		"sudo git push -f origin a b",
	])
		expect(await verdict(line)).toBe("ask");
	for (const line of [
		"git push -f",
		"git push -f origin main",
		"git push origin +master",
		"git push -f origin feature release/2",
		"git push -f origin $BRANCH",
		"git push -f --all origin",
		"git push -f origin refs/tags/v1",
		"git push -f origin :feature",
		"git push --mirror origin",
	])
		expect(await verdict(line)).toBe("block");
	expect(await verdict("git push --force-with-lease origin feature")).toBe("allow");
	expect((await git.decide("git push -f origin feature", { cwd: project })).reason).toBe(
		"a force push without --force-with-lease can overwrite others' commits (to feature)",
	);
});

test("the handler answers an ask rule with {ask: true, reason} (the host asks the person), a block rule with a block", async () => {
	const prompts: string[] = [];
	const ctx = (hasUI: boolean, answer: boolean) =>
		({
			cwd: project,
			hasUI,
			ui: {
				confirm: async (title: string, message: string) => {
					prompts.push(`${title} | ${message}`);
					return answer;
				},
			},
		}) as unknown as Parameters<typeof guard.handler>[1];
	const call = (command: string, c: ReturnType<typeof ctx>) =>
		guard.handler({ type: "tool_call", toolCallId: "1", toolName: "bash", input: { command } } as never, c);
	// The handler itself asks nobody: with a UI or without, the ask is its answer, for the host to put.
	expect(await call("make deploy", ctx(true, true))).toEqual({ ask: true, reason: "deploys need a yes [team/deploy]" });
	expect(await call("make deploy", ctx(false, true))).toEqual({ ask: true, reason: "deploys need a yes [team/deploy]" });
	expect(await call("make nuke", ctx(true, true))).toEqual({ block: true, reason: "nukes are never run by an agent [team/nuke]" });
	expect(prompts).toEqual([]);
});

test("explain: the decision, every rule that matched, the cwd, the guard's setup; an observer hears each decision", async () => {
	const explained = await guard.explain("cd sub && make deploy; make nuke", { cwd: project });
	expect(explained).toMatchObject({ verdict: "block", rule: "team/nuke", line: "cd sub && make deploy; make nuke", cwd: project });
	expect(explained.matches).toEqual([
		{ rule: "team/deploy", verdict: "ask", reason: "deploys need a yes", command: 1 },
		{ rule: "team/nuke", verdict: "block", reason: "nukes are never run by an agent", command: 2 },
		// `make nuke` after `;` runs in sub, or where the line started had the cd failed: judged in both.
		{ rule: "team/nuke", verdict: "block", reason: "nukes are never run by an agent", command: 3 },
	]);
	expect(explained.commands[1]).toMatchObject({ program: "make", args: ["deploy"], cwd: `${project}/sub` });
	expect(explained.guard).toEqual({
		packs: ["team"],
		disable: [],
		allowPaths: [],
		rules: [],
		verdicts: {},
		tools: ["bash"],
		onParseError: "block",
	});
	const refused = await guard.explain("echo 'oops", { cwd: project });
	expect(refused.matches).toEqual([{ rule: "parse/error", verdict: "block", reason: refused.reason as string }]);

	const heard: ShellExplanation[] = [];
	const stop = observeShellGuards((e) => heard.push(e));
	try {
		expect((await decide("make deploy")).verdict).toBe("ask");
	} finally {
		stop();
	}
	await decide("make nuke");
	expect(heard.map((e) => [e.line, e.verdict, e.matches.length])).toEqual([["make deploy", "ask", 1]]);
	expect(guard.packs).toEqual([team]);
	expect(guard.options.packs).toEqual([team]);
});
