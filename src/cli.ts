#!/usr/bin/env -S bun --no-env-file --config=/dev/null
// The first import checks how Bun was started: nothing of a project may run before trust (docs/contract.md#trust).
import "./start-guard.ts";
import { forwardBridgeCall } from "./socket/forward.ts";
import { flushDecisionExports } from "./decisions/otlp-queue.ts";
import { flushProfile, mark } from "./profile.ts";

const argv = process.argv.slice(2);
// A bridge call with `serve --socket` running is answered there: this process loads nothing else.
const forwarded = argv[0] === "bridge" ? await forwardBridgeCall(argv) : undefined;
mark("no-server"); // the phase the bench calls "looked for serve --socket"
if (forwarded !== undefined) {
	flushProfile();
	process.exit(forwarded);
}
// A plain bridge call that no server answered runs without the CLI's parser and command table.
const [cli, { registerEmbeddedModules }, { exitProcess }, { ownIntrinsics }] = await Promise.all([
	argv[0] === "bridge" ? import("./cli/bridge-call.ts") : import("./cli/main.ts"),
	import("./embedded/index.ts"),
	import("./process/exit-guard.ts"),
	import("./intrinsic-damage.ts"),
]);
// Only our code and the hooks run in this process: a built-in that changed was changed by a hook (src/intrinsics.ts).
ownIntrinsics();
// Before any hook is imported: `import "xcsh-hooks"` in a hook resolves to this program's own copy.
registerEmbeddedModules();
mark("modules");
const code = ("plainBridgeCall" in cli ? await cli.plainBridgeCall(argv) : undefined) ?? (await runCli(argv));
// Decisions queued for an OpenTelemetry collector go out after the answer, bounded (free when none were).
await flushDecisionExports();
flushProfile();
exitProcess(code);

/** The whole CLI: every command line but a plain bridge call. */
async function runCli(args: string[]): Promise<number> {
	const { main } = await import("./cli/main.ts");
	return main(args);
}
