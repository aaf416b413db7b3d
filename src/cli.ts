#!/usr/bin/env -S bun --no-env-file --config=/dev/null
// The first import checks how Bun was started: nothing of a project may run before trust (SPEC §10).
import "./start-guard.ts";
import { main } from "./cli/main.ts";
import { registerEmbeddedModules } from "./embedded/index.ts";
import { exitProcess } from "./host/exit-guard.ts";
import { flushProfile, mark } from "./profile.ts";

// Before any hook is imported: `import "xcsh-hooks"` in a hook resolves to this program's own copy.
registerEmbeddedModules();
mark("modules");
const code = await main(process.argv.slice(2));
flushProfile();
exitProcess(code);
