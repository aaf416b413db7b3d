import type { RulePack } from "../types.ts";
import { backupPack } from "./backup.ts";
import { ciPack } from "./ci.ts";
import { cloudPack } from "./cloud.ts";
import { containersPack } from "./containers.ts";
import { databasesPack } from "./databases.ts";
import { filesystemPack } from "./filesystem.ts";
import { gitPack } from "./git.ts";
import { hostingPack } from "./hosting.ts";
import { messagingPack } from "./messaging.ts";
import { privilegePack } from "./privilege.ts";
import { rsyncPack } from "./rsync.ts";
import { searchPack } from "./search.ts";
import { secretsPack } from "./secrets.ts";
import { shellPack } from "./shell.ts";
import { storagePack } from "./storage.ts";
import { windowsPack } from "./windows.ts";

/** Every built-in pack by name. */
export const PACKS = {
	shell: shellPack,
	git: gitPack,
	filesystem: filesystemPack,
	databases: databasesPack,
	containers: containersPack,
	cloud: cloudPack,
	secrets: secretsPack,
	backup: backupPack,
	rsync: rsyncPack,
	storage: storagePack,
	search: searchPack,
	messaging: messagingPack,
	ci: ciPack,
	hosting: hostingPack,
	privilege: privilegePack,
	windows: windowsPack,
} as const satisfies Record<string, RulePack>;

/** The name of a built-in pack. */
export type PackName = keyof typeof PACKS;

/** The packs a guard runs when `packs` is not given. */
export const DEFAULT_PACKS: readonly PackName[] = ["shell", "git", "filesystem"];

export {
	backupPack,
	ciPack,
	cloudPack,
	containersPack,
	databasesPack,
	filesystemPack,
	gitPack,
	hostingPack,
	messagingPack,
	privilegePack,
	rsyncPack,
	searchPack,
	secretsPack,
	shellPack,
	storagePack,
	windowsPack,
};
