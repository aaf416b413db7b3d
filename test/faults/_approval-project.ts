/** A project for approval tests: its files, its own HOME, approvals and bash calls through one CLI. */
import { join } from "node:path";
import { type Cli, runCli } from "./_cli.ts";
import { bashCall, privateHome, tempDir, writeFiles } from "./_fixtures.ts";

/** A project with `files` and its own HOME; `approve(path)` approves through the CLI; `emit(command)` runs one bash call. */
export function approvalProject(cli: Cli, files: Record<string, string>, prefix = "xcsh-faults-covers-") {
	const dir = tempDir(prefix);
	const home = privateHome();
	writeFiles(dir, files);
	return {
		dir,
		home,
		path: (relative: string) => join(dir, relative),
		async approve(relative: string) {
			const run = await runCli(cli, ["trust", "approve", join(dir, relative)], { cwd: dir, home });
			if (run.code !== 0) throw new Error(`trust approve ${relative} failed (${run.code}): ${run.stderr}`);
			return run;
		},
		emit: (command: string) => runCli(cli, ["emit", "tool_call"], { cwd: dir, home, stdin: bashCall(command) }),
	};
}
