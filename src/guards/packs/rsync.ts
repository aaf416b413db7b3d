/** The `rsync` pack (opt-in): every rsync that deletes, wherever it points (the default pack only guards home and the project). */
import type { RulePack } from "../types.ts";
import { RSYNC_DELETES, rsyncOperands } from "./filesystem-moves.ts";

/** rsync --delete (any form) or --remove-source-files, local or remote, unless --dry-run. */
export const rsyncPack: RulePack = {
	name: "rsync",
	description: "rsync --delete/--delete-*/--remove-source-files anywhere, unless --dry-run",
	rules: [
		{
			id: "rsync/delete",
			reason: "rsync deletes files (--delete or --remove-source-files)",
			programs: ["rsync"],
			test(command) {
				if (rsyncOperands(command.args).dryRun) return false;
				const flag = command.args.find((arg) => arg.startsWith("--") && RSYNC_DELETES.test(arg.slice(2).split("=")[0] as string));
				return flag !== undefined && `rsync ${flag} deletes files`;
			},
		},
	],
	protects: ["every rsync --delete, --delete-before/during/after/delay/excluded/missing-args, --del, --remove-source-files"],
	leavesAlone: ["rsync that only copies; any rsync with -n/--dry-run or --list-only"],
};
