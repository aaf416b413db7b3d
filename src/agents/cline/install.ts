import { clineEvents } from "./bridge.ts";
import { installEvents } from "../_shared/events.ts";
import { CLINE } from "./protocol.ts";
import { join } from "pathe";
import { blocksWithoutAnswer, CLEAN_ENV_SH, NO_ANSWER, requireProgram, runOrElse } from "../_shared/entry-shell.ts";
import { type AgentEvent, type AgentSpec, scriptMarker } from "../_shared/install-spec.ts";

/**
 * One event's executable: it removes the variables Bun acts on before our code runs (as every entry's shell
 * does, src/agents/_shared/entry-shell.ts), then runs the bridge. Cline reads no exit code, so on PreToolUse
 * a bridge that ends without an answer is answered here with `cancel` (the run ends; never an allow).
 */
function script(event: AgentEvent, command: string): string {
	const head = `#!/bin/sh\n${scriptMarker(CLINE.name)}\n# Bun acts on BUN_*, MIMALLOC_* and NODE_PATH before xcsh-hooks starts: they go first.\n${CLEAN_ENV_SH}\n`;
	const call = `set -- ${command} --event ${event.name}\n`;
	if (!blocksWithoutAnswer(event)) return `${head}${call}${requireProgram("exit 127")}\nexec "$@"\n`;
	const cancel = `printf '{"cancel":true,"errorMessage":"xcsh-hooks: the bridge ended without an answer (exit status %s); the run is cancelled (fail closed)"}\\n' "$s"`;
	return `${head}${call}${requireProgram(`s=127; ${cancel}; exit 0`)}\n${runOrElse(`echo "${NO_ANSWER}" >&2; ${cancel}`)}\n`;
}

/**
 * One executable per event in `.clinerules/hooks/` (project) or `~/.cline/hooks/` (user), each only
 * running the bridge for its event. Cline has no timeout setting (it waits 120 s); the bridge answers
 * by itself well before.
 */
export const clineInstall: AgentSpec = {
	id: CLINE.name,
	label: CLINE.label,
	file: (scope, dir) => (scope === "project" ? join(dir, ".clinerules", "hooks") : join(dir, ".cline", "hooks")),
	layout: "files",
	commandKey: "command",
	base: {},
	events: installEvents(clineEvents, [
		{ name: "PreToolUse" },
		{ name: "PostToolUse" },
		{ name: "UserPromptSubmit" },
		{ name: "TaskStart" },
		{ name: "TaskComplete" },
		{ name: "SessionShutdown" },
	]),
	script,
	handler: (_event, command) => ({ command }),
	notes: () => [],
};
