import type { RulePack } from "../types.ts";
import { cloudPack } from "./cloud.ts";
import { containersPack } from "./containers.ts";
import { databasesPack } from "./databases.ts";
import { filesystemPack } from "./filesystem.ts";
import { gitPack } from "./git.ts";
import { shellPack } from "./shell.ts";

/** Every built-in pack by name. */
export const PACKS = {
	shell: shellPack,
	git: gitPack,
	filesystem: filesystemPack,
	databases: databasesPack,
	containers: containersPack,
	cloud: cloudPack,
} as const satisfies Record<string, RulePack>;

/** The name of a built-in pack. */
export type PackName = keyof typeof PACKS;

/** The packs a guard runs when `packs` is not given. */
export const DEFAULT_PACKS: readonly PackName[] = ["shell", "git", "filesystem"];

export { cloudPack, containersPack, databasesPack, filesystemPack, gitPack, shellPack };
