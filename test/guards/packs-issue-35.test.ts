/**
 * Every example issue 35 names for the packs, with the verdict it asks for, two ways: through the
 * testing harness on the hook `init --template guard` writes (its packs, its allowPaths, no UI so
 * nothing can be asked), and through `createShellGuard` directly. The opt-in families run on the
 * same template with `packs: "all"`.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createShellGuard, DEFAULT_PACKS } from "../../src/guards/index.ts";
import { TEMPLATES } from "../../src/templates/index.ts";
import { createHookHarness } from "../../src/testing/index.ts";
import { executablePath, runArgv, useClis } from "../faults/_cli.ts";
import { privateHome } from "../faults/_fixtures.ts";

useClis();

/** [command, rule that must block it] — blocked by the default packs. */
const DEFAULT_BLOCK: Array<[string, string]> = [
	["git reset --har", "git/reset-hard"],
	["git clean --forc", "git/clean-force"],
	["git checkout --forc", "git/checkout-worktree"],
	["git checkout HEAD file.txt", "git/checkout-worktree-paths"],
	["git -c alias.x='reset --hard' x", "git/reset-hard"],
	["git -c alias.x='!rm -rf ~' x", "filesystem/recursive-delete"],
	["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='reset --hard' git x", "git/reset-hard"],
	["GIT_CONFIG_PARAMETERS=\"'alias.x'='checkout -- .'\" git x", "git/checkout-worktree"],
	["git rebase --exec 'rm -rf ~' main", "filesystem/recursive-delete"],
	["git -c clean.requireForce=false clean -d", "git/clean-force"],
	["git -c remote.origin.push=+refs/heads/*:refs/heads/* push origin", "git/force-push"],
	["git -c remote.origin.mirror=true push origin", "git/force-push"],
	["git push --force-with-lease --force", "git/force-push"],
	["git clean -e -n -f", "git/clean-force"],
	["git -C repo -c core.x=y --git-dir .git --work-tree . reset --hard", "git/reset-hard"],
	["mv ~ /tmp/old-home", "filesystem/move-away"],
	["mv . ..", "filesystem/move-away"],
	['mv "$PWD" /tmp', "filesystem/move-away"],
	["rsync -a --delete empty/ ~/", "filesystem/rsync-delete"],
	["rsync -a --remove-source-files ./ /tmp/elsewhere/", "filesystem/rsync-delete"],
	["tar --remove-files -czf /tmp/home.tgz ~", "filesystem/archive-delete"],
	["zip -m /tmp/home.zip -r ~", "filesystem/archive-delete"],
	["npx rimraf ~", "filesystem/delete-tool"],
	["bunx rimraf .", "filesystem/delete-tool"],
	["pnpm dlx del-cli ~", "filesystem/delete-tool"],
	["npm exec -- rimraf ~", "filesystem/delete-tool"],
	["yarn dlx rimraf ~", "filesystem/delete-tool"],
	["git rm -rf .", "git/rm-worktree"],
	["git read-tree --reset -u HEAD", "git/read-tree-reset"],
	["git checkout-index -a -f", "git/checkout-index-force"],
	["git checkout -- .", "git/checkout-worktree"],
	["git restore .", "git/restore-worktree"],
	["dd if=disk.img of=/dev/./sda", "filesystem/device-write"],
	["dd if=disk.img of=//dev/sda", "filesystem/device-write"],
	["dd if=disk.img of=/dev/../dev/sda", "filesystem/device-write"],
	["cd /dev && dd if=/tmp/disk.img of=sda", "filesystem/device-write"],
	["dcfldd if=disk.img of=/dev/sdb", "filesystem/device-write"],
	["ddrescue -f /dev/sda /dev/sdb map", "filesystem/device-write"],
	["install disk.img /dev/sdc", "filesystem/device-write"],
	["pv -o /dev/sdd disk.img", "filesystem/device-write"],
	["pv disk.img > /dev/sdd", "filesystem/device-write"],
	["cp disk.img /dev/sda", "filesystem/device-write"],
	["cat disk.img > /dev/sda", "filesystem/device-write"],
	["tee /dev/sda < disk.img", "filesystem/device-write"],
	["shred -n 1 /dev/sda", "filesystem/shred"],
	["wipefs -a /dev/sda", "filesystem/format"],
	["blkdiscard /dev/sda", "filesystem/format"],
	["sgdisk -Z /dev/sda", "filesystem/format"],
	["mkfs.ext4 /dev/sda1", "filesystem/format"],
	["lvremove -f vg0/data", "filesystem/volume-destroy"],
	["vgremove vg0", "filesystem/volume-destroy"],
	["pvremove /dev/sdb", "filesystem/volume-destroy"],
];

/** The everyday forms the issue names: allowed by the default packs. */
const DEFAULT_ALLOW = [
	"rm -rf node_modules",
	"rm -rf ./build",
	"find . -name '*.pyc' -delete",
	"mkfs.ext4 -F disk.img",
	"git push --force-with-lease",
];

/** [command, rule] — each family, blocked with every pack on. */
const FAMILY_BLOCK: Array<[string, string]> = [
	["vault kv destroy -versions=1 secret/app", "secrets/vault"],
	["op item delete 'Prod DB'", "secrets/1password"],
	["doppler secrets delete API_KEY", "secrets/doppler"],
	["rclone purge remote:bucket", "backup/rclone"],
	["restic forget --keep-last 1 --prune", "backup/restic"],
	["borg delete /repo::archive", "backup/borg"],
	["velero backup delete nightly", "backup/velero"],
	["rsync -a --delete site/ web:/var/www/", "rsync/delete"],
	["mc rm --recursive --force local/bucket", "storage/minio"],
	["s3cmd del s3://bucket/key", "storage/s3cmd"],
	["gcloud storage rm gs://bucket/key", "storage/gcs"],
	["curl -X DELETE http://localhost:9200/logs", "search/http-delete"],
	["curl -X DELETE http://localhost:7700/indexes/movies", "search/http-delete"],
	["algolia indices delete products", "search/algolia"],
	["kafka-topics --bootstrap-server b:9092 --delete --topic orders", "messaging/kafka"],
	["rabbitmqctl delete_queue orders", "messaging/rabbitmqctl"],
	["nats stream rm ORDERS -f", "messaging/nats"],
	["java -jar jenkins-cli.jar -s http://ci delete-job app", "ci/jenkins"],
	["glab repo delete group/app", "ci/glab"],
	["circleci context delete github org ctx", "ci/circleci"],
	["gh repo delete owner/repo --yes", "hosting/gh-delete"],
	["gh release delete v1.0 --yes", "hosting/gh-delete"],
	["su -", "privilege/elevate"],
	["doas sh", "privilege/elevate"],
	["chmod u+s /usr/local/bin/tool", "privilege/setuid"],
	["chmod 4755 tool", "privilege/setuid"],
	["chmod 777 /etc/passwd", "privilege/system-files"],
	["chown me /etc/shadow", "privilege/system-files"],
	["iptables -F", "privilege/firewall"],
	["nft flush ruleset", "privilege/firewall"],
	["ufw disable", "privilege/firewall"],
	["rmmod nvidia", "privilege/kernel-module"],
	["insmod ./mod.ko", "privilege/kernel-module"],
	["modprobe -r usb_storage", "privilege/kernel-module"],
	["format C:", "windows/format"],
	["del /s /q C:\\\\Users\\\\me", "windows/recursive-delete"],
	["rd /s /q C:\\\\", "windows/recursive-delete"],
	["cmd /c 'rmdir /s /q C:\\Users'", "windows/recursive-delete"],
	["powershell -Command 'Remove-Item -Recurse -Force C:\\Users\\me'", "windows/recursive-delete"],
	["pwsh -c 'rm -r -fo C:\\'", "windows/recursive-delete"],
	["icacls C:\\\\data /grant Everyone:F", "windows/acl"],
	["takeown /f C:\\\\Windows /r", "windows/takeown"],
	["cipher /w:C:", "windows/cipher-wipe"],
];

/** AWS secrets, object storage and SQS/SNS: blocked with every pack on (the cloud pack's aws rule may be first). */
const FAMILY_BLOCK_ANY = [
	"aws secretsmanager delete-secret --secret-id prod/db",
	"aws s3 rm s3://bucket --recursive",
	"gsutil rm -r gs://bucket",
	"az storage blob delete -c c -n x",
	"aws sqs purge-queue --queue-url u",
	"aws sns delete-topic --topic-arn a",
];

const HOOK_NAME = "guard";

/** The hook `init --template guard` writes, with `packs` replaced when asked, in a project that resolves xcsh-hooks. */
function templateHook(packs?: string, linked = true): { dir: string; hook: string } {
	const dir = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "issue35-")));
	if (linked) {
		mkdirSync(join(dir, "node_modules"));
		symlinkSync(join(import.meta.dir, "..", ".."), join(dir, "node_modules", "xcsh-hooks"));
	}
	const [file] = TEMPLATES.guard.files(HOOK_NAME).filter((f) => f.role === "hook");
	if (!file) throw new Error("the guard template has no hook file");
	let content = file.content;
	if (packs !== undefined) {
		const replaced = content.replace(/packs: \[[^\]]*\]/, `packs: ${packs}`);
		if (replaced === content) throw new Error("the guard template no longer sets `packs: [...]`");
		content = replaced;
	}
	writeFileSync(join(dir, file.relativePath), content);
	return { dir, hook: join(dir, file.relativePath) };
}

async function throughHarness(packs: string | undefined, cases: Array<[string, string | undefined]>): Promise<string[]> {
	const { dir, hook } = templateHook(packs);
	const h = await createHookHarness(hook, { cwd: dir });
	const wrong: string[] = [];
	for (const [command, rule] of cases) {
		const call = await h.toolCall("bash", { command });
		const blocked = rule !== undefined;
		if (call.blocked !== blocked) wrong.push(`${command}: ${call.blocked ? `blocked (${call.reason})` : "allowed"}`);
		else if (rule && rule !== "*" && !call.reason?.includes(`[${rule}]`)) wrong.push(`${command}: ${call.reason}, expected [${rule}]`);
	}
	expect(h.prompts).toEqual([]);
	return wrong;
}

async function direct(all: boolean, cases: Array<[string, string | undefined]>): Promise<string[]> {
	const cwd = realpathSync(mkdtempSync(join(process.env.HOME ?? "/tmp", "issue35-direct-")));
	const guard = createShellGuard(all ? { packs: "all" } : { packs: DEFAULT_PACKS });
	const wrong: string[] = [];
	for (const [command, rule] of cases) {
		const decision = await guard.decide(command, { cwd });
		const blocked = rule !== undefined;
		if (decision.block !== blocked) wrong.push(`${command}: ${decision.block ? `blocked by ${decision.rule}` : "allowed"}`);
		else if (rule && rule !== "*" && decision.rule !== rule) wrong.push(`${command}: blocked by ${decision.rule}, expected ${rule}`);
	}
	return wrong;
}

const defaults: Array<[string, string | undefined]> = [...DEFAULT_BLOCK, ...DEFAULT_ALLOW.map((c): [string, undefined] => [c, undefined])];
const families: Array<[string, string | undefined]> = [...FAMILY_BLOCK, ...FAMILY_BLOCK_ANY.map((c): [string, string] => [c, "*"])];

describe("issue 35's examples for the packs", () => {
	test("the default packs, through the harness on the guard template", async () => {
		expect(await throughHarness(undefined, defaults)).toEqual([]);
	}, 60_000);
	test("the default packs, through createShellGuard", async () => {
		expect(await direct(false, defaults)).toEqual([]);
	});
	test('every family, through the harness on the guard template with packs: "all"', async () => {
		expect(await throughHarness('"all"', families)).toEqual([]);
	}, 60_000);
	test('every family, through createShellGuard({ packs: "all" })', async () => {
		expect(await direct(true, families)).toEqual([]);
	});
	test("the default packs, through `emit tool_call` and `bridge claude` of the compiled executable", async () => {
		// No node_modules: the executable serves xcsh-hooks/guards (and the parser's WASM) from inside itself.
		const { dir, hook } = templateHook(undefined, false);
		const home = privateHome({ server: false });
		const wrong: string[] = [];
		for (const [command, rule] of defaults) {
			const data = JSON.stringify({ toolName: "bash", input: { command } });
			const emit = await runArgv([executablePath(), "emit", "tool_call", "--no-discovery", "--hook", hook, "--data", data], {
				cwd: dir,
				home,
				timeoutMs: 20_000,
			});
			const result = JSON.parse(emit.stdout || "{}").result;
			// A rule whose verdict is ask (git checkout of paths) answers {ask: true}: not run here either.
			const stopped = Boolean(result?.block) || Boolean(result?.ask);
			if (emit.code !== (rule ? 2 : 0) || stopped !== Boolean(rule)) wrong.push(`emit ${command}: exit ${emit.code} ${emit.stderr.trim()}`);
			else if (rule && !String(result.reason).includes(`[${rule}]`)) wrong.push(`emit ${command}: ${result.reason}`);
			const payload = JSON.stringify({
				session_id: "s35",
				hook_event_name: "PreToolUse",
				tool_name: "Bash",
				tool_input: { command },
				cwd: dir,
			});
			const bridge = await runArgv([executablePath(), "bridge", "claude", "--no-discovery", "--hook", hook], {
				cwd: dir,
				home,
				stdin: payload,
				timeoutMs: 20_000,
			});
			const answer = bridge.stdout.trim() ? JSON.parse(bridge.stdout) : {};
			// Claude Code asks its user where the rule asks (and denies headless): never an allow.
			const denied = ["deny", "ask"].includes(answer.hookSpecificOutput?.permissionDecision);
			if (bridge.code !== 0 || denied !== Boolean(rule))
				wrong.push(`bridge ${command}: exit ${bridge.code} ${bridge.stdout.trim()} ${bridge.stderr.trim()}`);
			else if (rule && !String(answer.hookSpecificOutput.permissionDecisionReason).includes(`[${rule}]`))
				wrong.push(`bridge ${command}: ${bridge.stdout}`);
		}
		expect(wrong).toEqual([]);
	}, 120_000);
	test("the families stay off by default", async () => {
		expect(
			await direct(
				false,
				families.map(([command]) => [command, undefined]),
			),
		).toEqual([]);
	});
});
