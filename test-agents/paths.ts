import { join, resolve } from "node:path";

/** Repository root. */
export const REPO = resolve(import.meta.dir, "..");
/** Where installed agent CLIs live between runs (gitignored). */
export const CACHE = join(REPO, ".cache", "agents");
/** npm's own download cache, kept beside the installs so the real HOME is never written. */
export const NPM_CACHE = join(REPO, ".cache", "npm");
/** Bun's package cache for the README case's `bun install` in a clean clone, filled in the setup phase (the cases run offline). */
export const BUN_CACHE = join(REPO, ".cache", "bun-install");
