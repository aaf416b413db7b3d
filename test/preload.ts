/**
 * Test isolation: no test may touch the real home directory. Every test process gets a fresh
 * temporary HOME (and XDG dirs) before any module that reads it is imported.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const home = mkdtempSync(join(tmpdir(), "xcsh-hooks-home-"));
process.env.HOME = home;
process.env.USERPROFILE = home;
process.env.XDG_CONFIG_HOME = join(home, ".config");
process.env.XDG_DATA_HOME = join(home, ".local", "share");
process.env.XCSH_HOOKS_TEST_HOME = home;
