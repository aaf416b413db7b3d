/**
 * Test isolation. No test may touch the real home directory, and a run leaves nothing behind:
 * every temp dir of this run (tests use os.tmpdir(), and spawned processes inherit TMPDIR) lands in
 * one root that is removed after the last test file; HOME and the XDG dirs point inside it.
 * A spawn that would hand its child the real HOME throws, and after the last file the real
 * homes' `.xcsh` must be as they were (test/_home-guard.ts).
 */
import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installSpawnGuard, realHomes, serverOffByDefault, watchHomes } from "./_home-guard.ts";

// Read before HOME is replaced below. Spawns must not see any real home; the `.xcsh` compared after the
// run is the one of the HOME the run was started with (a child without HOME is refused, so the passwd
// home cannot be reached another way).
const homes = realHomes();
installSpawnGuard(homes);
serverOffByDefault();
process.env.XCSH_HOOKS_SERVER = "off"; // in-process calls too
const watch = watchHomes(homes.slice(0, 1));

const root = mkdtempSync(join(tmpdir(), "xcsh-hooks-tests-"));
process.env.TMPDIR = root;
const home = join(root, "home");
mkdirSync(home);
process.env.HOME = home;
process.env.USERPROFILE = home;
process.env.XDG_CONFIG_HOME = join(home, ".config");
process.env.XDG_DATA_HOME = join(home, ".local", "share");

// Long: every `init` writes ~600 editor declaration files, and a busy machine takes seconds to remove them all.
afterAll(() => {
	rmSync(root, { recursive: true, force: true });
	watch.check();
}, 120_000);
