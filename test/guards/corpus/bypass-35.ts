/**
 * Bypass attempts on issue 35's classes: each new destructive core behind ways of running it, and
 * in spellings git and the shell accept. The same ways around harmless cores stay harmless.
 */
import type { GuardCase } from "./_case.ts";

const CORES: Array<[string, string]> = [
	["git reset --har", "git/reset-hard"],
	["git clean -e -n -f", "git/clean-force"],
	["git -c clean.requireForce=false clean -dx", "git/clean-force"],
	["git -c alias.z=reset\\ --hard z", "git/reset-hard"],
	["git push --force-with-lease --force", "git/force-push"],
	["git checkout HEAD -- .", "git/checkout-worktree"],
	["git rm -rf .", "git/rm-worktree"],
	["git checkout-index -a -f", "git/checkout-index-force"],
	["mv ~ /tmp/h", "filesystem/move-away"],
	["rsync -a --delete e/ ~/", "filesystem/rsync-delete"],
	["tar --remove-files -cf /tmp/h.tar ~", "filesystem/archive-delete"],
	["npx rimraf ~", "filesystem/delete-tool"],
	["dd if=x of=//dev/sda", "filesystem/device-write"],
	["mkfs.ext4 /dev/./sdb1", "filesystem/format"],
	["lvremove -f vg0/data", "filesystem/volume-destroy"],
];

/** Ways to run a command; `%` is the command. */
const WAYS = [
	"sudo %",
	"sudo -u root -- %",
	"env -i PATH=/usr/bin %",
	"nohup % &",
	"timeout 30 %",
	"nice -n 10 %",
	"command %",
	"bash -c '%'",
	"sh -lc '%'",
	"eval '%'",
	"echo '%' | bash",
	"bash <<'X'\n%\nX",
	"(cd /tmp; cd /tmp/x; %)",
	"{ true; %; }",
	"true && %",
	"false || %",
	"if :; then %; fi",
	"for i in 1; do %; done",
	"g() { %; }; g",
	"echo $(%)",
	"x=$(%); echo $x",
	"watch -n 1 '%'",
	"find . -maxdepth 0 -exec sh -c '%' \\;",
	"xargs -I{} sh -c '%' <<< x",
	"python3 -c \"import os; os.system('%')\"",
];

/** Spellings of the same thing that git or the shell read alike. */
const SPELLINGS: Array<[string, string]> = [
	["/usr/bin/git reset --har", "git/reset-hard"],
	["'git' 'reset' '--ha'", "git/reset-hard"],
	['git reset "--h"a"r"', "git/reset-hard"],
	["git -c 'alias.z=reset --hard' z", "git/reset-hard"],
	["git -c alias.z='reset --hard' -C . z", "git/reset-hard"],
	['git -c alias.z="reset --har" z', "git/reset-hard"],
	["git -c alias.y='reset --hard' -c alias.z=y z", "git/reset-hard"],
	["GIT_CONFIG_PARAMETERS=\"'alias.z'='checkout -- .'\" git z", "git/checkout-worktree"],
	["git clean --fo", "git/clean-force"],
	["git clean --exclude=x --forc", "git/clean-force"],
	["git -c clean.requireForce=off clean -d", "git/clean-force"],
	["git push --no-force --force", "git/force-push"],
	["git push origin +HEAD --force-with-lease=main", "git/force-push"],
	["mv -- ~ /tmp/h", "filesystem/move-away"],
	["mv ~/. /tmp/h", "filesystem/move-away"],
	["mv ~/.. /tmp/h", "filesystem/move-away"],
	["rsync -a --delete-during e/ ~", "filesystem/rsync-delete"],
	["rsync -a --dele e/ .", "filesystem/rsync-delete"],
	["npx --yes rimraf@latest ~", "filesystem/delete-tool"],
	["npm exec --yes -- rimraf ~", "filesystem/delete-tool"],
	["pnpm dlx rimraf '~'", "filesystem/delete-tool"],
	["dd of=/dev///sda if=x", "filesystem/device-write"],
	["dd if=x of=/dev/./../dev/sda", "filesystem/device-write"],
	["cd /dev && cd . && dd if=x of=./sda", "filesystem/device-write"],
	["cd /etc && dd if=x of=../dev/sda", "filesystem/device-write"],
];

const HARMLESS = ["git reset --soft HEAD~1", "rm -rf node_modules", "mv a.txt b.txt", "dd if=/dev/zero of=disk.img count=1"];

export const BYPASS_35: GuardCase[] = [
	// A backslash in Python's string reaches the shell as written; the analyzer reads Python strings its own way.
	...CORES.flatMap(([core, rule]) =>
		WAYS.filter((way) => !(core.includes("\\") && way.includes("python3"))).map((way) => ({
			command: way.replaceAll("%", core),
			block: true,
			rule,
		})),
	),
	...SPELLINGS.map(([command, rule]) => ({ command, block: true, rule })),
];

export const WRAPPED_HARMLESS_35: GuardCase[] = HARMLESS.flatMap((core) =>
	// `echo $(…)` runs the inner command only; the ones that compute a program name are left out.
	WAYS.filter((way) => !way.includes("python3")).map((way) => ({ command: way.replaceAll("%", core), block: false })),
);
