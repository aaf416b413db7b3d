/** The `backup` pack (opt-in): commands that delete backups or what a sync mirrors (rclone, restic, borg, velero…). */
import type { RulePack } from "../types.ts";
import { verbRule } from "./_verbs.ts";

const RCLONE = {
	longValue: [
		"config",
		"log-file",
		"transfers",
		"checkers",
		"bwlimit",
		"filter",
		"include",
		"exclude",
		"filter-from",
		"min-age",
		"max-age",
		"backup-dir",
		"suffix",
	],
};

/** rclone purge/delete/sync, restic forget/prune, borg delete/prune/compact, velero backup delete… */
export const backupPack: RulePack = {
	name: "backup",
	description: "rclone purge/delete/sync, restic forget/prune, borg delete/prune, velero backup delete",
	rules: [
		verbRule(
			"backup/rclone",
			"rclone deletes files or makes a remote match (deleting what differs)",
			["rclone"],
			["(purge|delete|deletefile|rmdir|rmdirs|cleanup|sync|dedupe|bisync)"],
			{ ...RCLONE, dryRun: ["--dry-run", "-n", "--interactive", "-i"] },
		),
		verbRule("backup/restic", "restic forgets or prunes snapshots", ["restic"], ["(forget|prune)", "key (remove|rm)"], {
			shortValue: "rp",
			longValue: [
				"repo",
				"password-file",
				"repository-file",
				"cache-dir",
				"option",
				"keep-last",
				"keep-daily",
				"keep-weekly",
				"keep-monthly",
				"keep-yearly",
				"keep-within",
				"tag",
				"host",
			],
			dryRun: ["--dry-run", "-n"],
		}),
		verbRule(
			"backup/borg",
			"borg deletes, prunes or rewrites archives",
			["borg", "borgbackup"],
			["(delete|prune|compact|recreate|rdelete|repo-delete|rcompact|repo-compact)"],
			{
				longValue: [
					"remote-path",
					"lock-wait",
					"keep-last",
					"keep-daily",
					"keep-weekly",
					"keep-monthly",
					"keep-yearly",
					"keep-within",
					"glob-archives",
					"prefix",
				],
				dryRun: ["--dry-run", "-n"],
			},
		),
		verbRule(
			"backup/velero",
			"velero deletes backups, schedules or itself",
			["velero"],
			[
				"(backup|schedule|restore|backup-location|snapshot-location|repo) (delete|rm)",
				"delete (backup|backups|schedule|restore)",
				"uninstall",
			],
			{ shortValue: "n", longValue: ["namespace", "kubeconfig", "kubecontext", "selector"] },
		),
		verbRule(
			"backup/others",
			"deletes backups or snapshots",
			["duplicity", "kopia", "tmutil"],
			[
				"(remove-older-than|remove-all-but-n-full|remove-all-inc-of-but-n-full)",
				"(snapshot|snap) (delete|rm)",
				"(delete|deletelocalsnapshots)",
			],
		),
	],
	protects: [
		"rclone purge/delete/deletefile/rmdirs/cleanup, and sync/bisync/dedupe (they delete what differs)",
		"restic forget/prune/key remove; borg delete/prune/compact/recreate; velero backup/schedule/restore delete, uninstall",
		"duplicity remove-*, kopia snapshot delete, tmutil delete",
	],
	leavesAlone: ["making and reading backups (rclone copy/ls, restic backup/snapshots, borg create/list), and every --dry-run"],
};
