#!/usr/bin/env bun
import { main } from "./cli/main.ts";
import { registerEmbeddedModules } from "./embedded/index.ts";

// Before any hook is imported: `import "xcsh-hooks"` in a hook resolves to this program's own copy.
registerEmbeddedModules();
const code = await main(process.argv.slice(2));
process.exit(code);
