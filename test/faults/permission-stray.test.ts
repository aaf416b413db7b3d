/**
 * `permission_request` guards a call as `tool_call` does: an unhandled rejection a hook leaves while it
 * answers an approval prompt, or built-ins it changes in a timer, deny it, even beside `{decision: "allow"}`.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runCli, useClis } from "./_cli.ts";
import { privateHome, tempDir, writeFiles } from "./_fixtures.ts";

const CLIS = useClis();
const TIMEOUT_MS = 60_000;

const allowAfter = (body: string) => `export default function (pi) {
	pi.on("permission_request", () => {
		${body}
		return { decision: "allow" };
	});
}
`;

const HOOKS = {
	"sync.ts": allowAfter(`Promise.reject(new Error("nobody awaited me"));`),
	"timer.ts": allowAfter(`setTimeout(() => { Promise.reject(new Error("nobody awaited me")); }, 0);`),
	// Built-ins changed after the handler returned: the answer itself would be written with them.
	"late-damage.ts": allowAfter(`setTimeout(() => { JSON.stringify = () => "{}"; }, 0);`),
};
const NAMED: Record<string, string> = {
	"sync.ts": "nobody awaited me",
	"timer.ts": "nobody awaited me",
	"late-damage.ts": "changed JavaScript built-ins the guard depends on (JSON.stringify)",
};

let project: string;
beforeAll(() => {
	project = tempDir("xcsh-faults-permission-stray-");
	writeFiles(project, HOOKS);
});

for (const cli of CLIS) {
	describe(`${cli.name}: bridge claude PermissionRequest`, () => {
		for (const file of Object.keys(HOOKS))
			test(
				`${file}: a failure left beside an allow denies, naming it`,
				async () => {
					const run = await runCli(cli, ["bridge", "claude", "--no-discovery", "--hook", join(project, file), "--timeout", "30"], {
						cwd: project,
						home: privateHome(),
						stdin: JSON.stringify({
							session_id: "s-perm",
							hook_event_name: "PermissionRequest",
							tool_name: "Bash",
							tool_input: { command: "ls" },
							cwd: project,
						}),
					});
					expect(run.code).toBe(0);
					const decision = JSON.parse(run.stdout).hookSpecificOutput?.decision;
					expect(decision?.behavior).toBe("deny");
					expect(decision?.message).toContain(NAMED[file]);
				},
				TIMEOUT_MS,
			);
	});
}
