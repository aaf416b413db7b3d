/**
 * What Claude Code does when a `type: "http"` PreToolUse hook does not answer (docs/serve.md#when-the-server-is-down):
 * the scripted model asks for `rm -rf build` once per mode; nothing listens at the hook's URL
 * (connection refused), or a server takes the request and never answers (the hook's 3 s timeout).
 *
 *   bun test-agents/probes/claude-http-unanswered.ts      (after `bun run test:agents --agent claude` installed it)
 *
 * Observed with Claude Code 2.1.328: without `onFailure` the refused hook lets the call run (build/ is
 * deleted: fail open); with `onFailure: "block"` a refused or timed-out hook blocks the call. There is
 * no fallback entry: Claude runs every matching hook of an event in parallel.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CACHE } from "../paths.ts";
import { createSandbox } from "../sandbox.ts";
import { startModelServer } from "../model/server.ts";
import { anthropicApi } from "../model/anthropic.ts";
const bin = join(CACHE, "@anthropic-ai+claude-code@2.1.328", "node_modules", ".bin", "claude");
for (const mode of ["continue-default", "block", "block-timeout"]) {
	const sb = createSandbox(`httpprobe-${mode}`);
	// A port nothing listens on (refused), or a server that never answers (timeout).
	let url = "http://127.0.0.1:1/claude";
	let hang: ReturnType<typeof Bun.serve> | undefined;
	if (mode === "block-timeout") {
		hang = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise<Response>(() => {}) });
		url = `http://127.0.0.1:${hang.port}/claude`;
	}
	const entry = { type: "http", url, timeout: 3, ...(mode.startsWith("block") ? { onFailure: "block" } : {}) };
	sb.write({
		"proj/.claude/settings.json": JSON.stringify({ hooks: { PreToolUse: [{ matcher: "*", hooks: [entry] }] } }),
		"proj/build/keep.txt": "x",
	});
	const model = startModelServer(anthropicApi, [{ kind: "shell", command: "rm -rf build", description: "clean" }]);
	const env = sb.env({
		ANTHROPIC_BASE_URL: model.url,
		ANTHROPIC_API_KEY: "sk-ant-test-key",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_ERROR_REPORTING: "1",
	});
	const t = performance.now();
	const p = Bun.spawn([bin, "-p", "clean the build folder", "--allowedTools", "Bash Read", "--output-format", "json"], {
		cwd: sb.proj,
		env,
		stdout: "pipe",
		stderr: "pipe",
	});
	const killer = setTimeout(() => p.kill("SIGKILL"), 90_000);
	const [, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
	await p.exited;
	clearTimeout(killer);
	const results = model.main().flatMap((r) => anthropicApi.toolResults(r.body));
	console.log(
		mode,
		"exit",
		p.exitCode,
		`${((performance.now() - t) / 1000).toFixed(1)} s`,
		"build/ still there:",
		existsSync(join(sb.proj, "build", "keep.txt")),
	);
	console.log("  tool results:", JSON.stringify(results).slice(0, 400));
	if (err.trim()) console.log("  stderr:", err.slice(0, 300));
	model.stop();
	hang?.stop(true);
	await sb.dispose(false);
}
