import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerOf, CLI, fixture, spawnRun, workspace } from "./_bridge.ts";

/**
 * A project's `.claude/settings.json` command hook is run by Claude Code itself: `bridge claude` must
 * not run it a second time. Another agent's bridge (here Codex) does run it, once approved — it is a
 * hook the user already has (issue 13).
 */
test("a bridge never runs its own agent's config hooks a second time; another agent's bridge runs them", async () => {
	const ws = workspace();
	const script = join(ws.project, "deny.sh");
	writeFileSync(script, "#!/bin/sh\necho 'CLAUDE-CONFIG-HOOK' >&2\nexit 2\n", { mode: 0o755 });
	mkdirSync(join(ws.project, ".claude"), { recursive: true });
	const settings = join(ws.project, ".claude", "settings.json");
	writeFileSync(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script }] }] } }));
	const approve = await spawnRun([process.execPath, CLI, "trust", "approve", settings], { home: ws.home, cwd: ws.project });
	expect(approve.code).toBe(0);

	const viaClaude = await spawnRun([process.execPath, CLI, "bridge", "claude"], {
		stdin: JSON.stringify(fixture("claude", "PreToolUse.Bash.json", ws.project)),
		home: ws.home,
		cwd: ws.project,
	});
	expect(viaClaude.code).toBe(0);
	expect(answerOf(viaClaude)).toBeUndefined(); // no opinion: Claude Code runs that hook itself

	const viaCodex = await spawnRun([process.execPath, CLI, "bridge", "codex"], {
		stdin: JSON.stringify(fixture("codex", "PreToolUse.json", ws.project)),
		home: ws.home,
		cwd: ws.project,
	});
	expect(JSON.stringify(answerOf(viaCodex))).toContain("CLAUDE-CONFIG-HOOK");
}, 60_000);
