/**
 * Approvals a team shares: a project hook approved only through a signed team list runs; with one byte
 * changed, a wrong key or a bad signature it does not (a warning, no approval). Real files, the real CLI
 * (both ways of starting it): `trust keygen`, `trust export`, `trust sign` make the list.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CELL_TIMEOUT_MS, type Cli, runCli, useClis } from "../faults/_cli.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "../faults/_fixtures.ts";

const GUARD = `import { helper } from "./lib/reason.ts";
export default (pi) => pi.on("tool_call", (e) => (String(e.input.command).includes("rm -rf") ? { block: true, reason: helper() } : undefined));
`;
const LIB = `export const helper = () => "TEAM-GUARD: no rm -rf";\n`;

async function ok(cli: Cli, args: string[], cwd: string, home: string) {
	const run = await runCli(cli, args, { cwd, home });
	if (run.code !== 0) throw new Error(`${args.join(" ")} failed (${run.code}): ${run.stderr}`);
	return run;
}

/**
 * The team's side: a key pair, a project whose guard the maintainer approved and exported, the list
 * signed. Then a user's fresh clone of the same project (no local approval) in another HOME.
 */
async function team(cli: Cli) {
	const org = tempDir("xcsh-team-org-");
	const orgHome = privateHome();
	const key = join(org, "team.key");
	const keygen = await ok(cli, ["trust", "keygen", "--out", key, "--json"], org, orgHome);
	const publicKey = (JSON.parse(keygen.stdout) as { publicKey: string }).publicKey;
	const maintainer = join(org, "proj");
	writeFiles(maintainer, { ".xcsh/hooks/guard.ts": GUARD, ".xcsh/hooks/lib/reason.ts": LIB });
	await ok(cli, ["trust", "approve", "--all"], maintainer, orgHome);
	const list = join(org, "approved-hooks.json");
	await ok(cli, ["trust", "export", "--out", list], maintainer, orgHome);
	await ok(cli, ["trust", "sign", "--key", key, list], org, orgHome);

	const clone = tempDir("xcsh-team-clone-");
	writeFiles(clone, { ".xcsh/hooks/guard.ts": GUARD, ".xcsh/hooks/lib/reason.ts": LIB });
	const userHome = (publicKeyText = publicKey) => privateHome({ teamApprovals: [{ list, publicKey: publicKeyText }] });
	const emit = (home: string) => runCli(cli, ["emit", "tool_call"], { cwd: clone, home, stdin: bashCall("rm -rf build") });
	return { org, list, clone, publicKey, userHome, emit, key, orgHome };
}

function cells(cli: Cli): void {
	test.concurrent(
		"a project hook approved only through a signed team list runs (and blocks)",
		async () => {
			const t = await team(cli);
			const list = JSON.parse(readFileSync(t.list, "utf8"));
			expect(list.kind).toBe("xcsh-hooks.approved-hooks");
			expect(list.approved[0].files).toEqual({ "lib/reason.ts": expect.stringMatching(/^[0-9a-f]{64}$/) });
			const run = await t.emit(t.userHome());
			expect(run.code).toBe(2);
			expect(run.stdout + run.stderr).toContain("TEAM-GUARD: no rm -rf");
			// Without the list setting, the same clone's hook is not approved: skipped, the call goes ahead.
			const without = await t.emit(privateHome());
			expect(without.code).toBe(0);
			expect(without.stdout + without.stderr).toContain("trust approve");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"one byte changed in the hook, or in a file it imports: not on the list, not run",
		async () => {
			const t = await team(cli);
			const home = t.userHome();
			writeFileSync(join(t.clone, ".xcsh/hooks/guard.ts"), GUARD.replace("reason: helper()", "reason:\thelper()"));
			const hook = await t.emit(home);
			expect(hook.code).toBe(0);
			expect(hook.stdout + hook.stderr).not.toContain("TEAM-GUARD");
			expect(hook.stdout + hook.stderr).toContain("trust approve");
			writeFileSync(join(t.clone, ".xcsh/hooks/guard.ts"), GUARD);
			writeFileSync(join(t.clone, ".xcsh/hooks/lib/reason.ts"), LIB.replace("TEAM", "TEAm"));
			const lib = await t.emit(home);
			expect(lib.code).toBe(0);
			expect(lib.stdout + lib.stderr).not.toContain("TEAm-GUARD");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a wrong key, a bad signature, a list changed after signing, a missing signature: a warning, nothing approved",
		async () => {
			const t = await team(cli);
			const other = await ok(cli, ["trust", "keygen", "--out", join(t.org, "other.key"), "--json"], t.org, t.orgHome);
			const wrong = await t.emit(t.userHome((JSON.parse(other.stdout) as { publicKey: string }).publicKey));
			expect(wrong.code).toBe(0);
			expect(wrong.stdout + wrong.stderr).toContain("the signature does not match the list and the trusted key");

			const sig = `${t.list}.sig`;
			const good = readFileSync(sig, "utf8").trim();
			const bytes = Buffer.from(good, "base64");
			bytes[10] = (bytes[10] ?? 0) ^ 1;
			writeFileSync(sig, `${bytes.toString("base64")}\n`);
			const bad = await t.emit(t.userHome());
			expect(bad.code).toBe(0);
			expect(bad.stdout + bad.stderr).toContain("approves nothing");

			writeFileSync(sig, `${good}\n`);
			writeFileSync(t.list, readFileSync(t.list, "utf8").replace('"version": 1', '"version":1'));
			const edited = await t.emit(t.userHome());
			expect(edited.code).toBe(0);
			expect(edited.stdout + edited.stderr).toContain("the signature does not match");

			const missing = await t.emit(privateHome({ teamApprovals: [{ list: join(t.org, "nope.json"), publicKey: t.publicKey }] }));
			expect(missing.code).toBe(0);
			expect(missing.stdout + missing.stderr).toContain("cannot read the list");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"a project's own settings cannot name a team list",
		async () => {
			const t = await team(cli);
			writeFiles(t.clone, { ".xcsh/settings.json": JSON.stringify({ teamApprovals: [{ list: t.list, publicKey: t.publicKey }] }) });
			const run = await t.emit(privateHome());
			expect(run.code).toBe(0);
			expect(run.stdout + run.stderr).not.toContain("TEAM-GUARD");
		},
		CELL_TIMEOUT_MS,
	);

	test.concurrent(
		"trust sign refuses a file that is not a list, and keygen never overwrites",
		async () => {
			const t = await team(cli);
			const junk = join(t.org, "junk.json");
			writeFileSync(junk, "{}\n");
			const sign = await runCli(cli, ["trust", "sign", "--key", t.key, junk], { cwd: t.org, home: t.orgHome });
			expect(sign.code).toBe(1);
			expect(sign.stderr).toContain("not an approved-hooks list");
			const again = await runCli(cli, ["trust", "keygen", "--out", t.key], { cwd: t.org, home: t.orgHome });
			expect(again.code).toBe(1);
			expect(again.stderr).toContain("already exists");
		},
		CELL_TIMEOUT_MS,
	);
}

const clis = useClis();
for (const cli of clis) describe(cli.name, () => cells(cli));
