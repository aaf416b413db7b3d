import { XcshError } from "../errors.ts";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "pathe";
import { discoverAndLoadHooks } from "../discovery/discover.ts";
import { HookRunner } from "../hooks/runner.ts";
import { HookToolWrapper } from "../hooks/tool-wrapper.ts";
import type { AgentTool, AgentToolResult } from "../hooks/types.ts";
import type { ToolResultMessage } from "../messages.ts";
import { SessionManager } from "../session/session-manager.ts";
import { TEMPLATES } from "../templates/index.ts";
import { createBuiltinTools } from "../tools/index.ts";
import { createNoOpUIContext } from "../ui/no-op.ts";
import { createStatusLine } from "../ui/status-line.ts";
import { agentSpec } from "../install/agents.ts";
import { registerEmbeddedModules } from "../embedded/index.ts";
import { selfArgv } from "../install/bridge-command.ts";
import { DEMO_CONTEXT, DEMO_PROMPT, demoSteps } from "./script.ts";
// The demo shows Claude Code by name: a captured payload of its own.
import { sampleGuardCall } from "../agents/claude/sample.ts";

/** The bundled example hooks: template → name in the workspace. */
const EXAMPLES = [
	["shell", "bash"],
	["guard", "guard"],
	["redact", "redact"],
	["context", "context-filter"],
	["command", "note"],
	["status", "progress"],
] as const;

/** Options of {@link runDemo}. */
export interface DemoOptions {
	/** Receives the trace, one line per call. */
	write: (line: string) => void;
	/** An empty (or missing) directory to use instead of a new temp dir; anything else is refused. */
	workspace?: string | undefined;
	/**
	 * Remove the workspace at the end (default false): the CLI's default for the temp dir it made,
	 * unless `--keep`. The trace then names no path that is gone.
	 */
	removeWorkspace?: boolean;
}

/** What the demo did, for tests and the CLI's `--json`. */
export interface DemoSummary {
	workspace: string;
	sessionFile: string;
	blocked: string[];
	allowed: string[];
	hookErrors: string[];
}

function writeExamples(workspace: string): void {
	const hooksDir = join(workspace, ".xcsh", "hooks");
	for (const [template, name] of EXAMPLES)
		for (const file of TEMPLATES[template].files(name)) {
			if (file.role !== "hook") continue;
			const path = join(hooksDir, file.relativePath);
			mkdirSync(dirname(path), { recursive: true });
			writeFileSync(path, file.content);
			if (file.executable) chmodSync(path, 0o755);
		}
	mkdirSync(join(workspace, "data"), { recursive: true });
	writeFileSync(join(workspace, "data", "records.csv"), "id,name\n1,Ada\n");
}

const text = (result: AgentToolResult) => result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n");
const indent = (s: string, pad = "      ") =>
	s
		.trimEnd()
		.split("\n")
		.map((l) => pad + l)
		.join("\n");

/**
 * The main job on an embedded default: writes the bundled example hooks into a temp workspace,
 * discovers and loads them like an agent would, and plays a scripted session through the real
 * runner, wrapper and tools, writing a readable trace. The workspace and its user directory are
 * sandboxed: the caller's own hooks, settings and trust store are neither used nor changed.
 */
export async function runDemo(options: DemoOptions): Promise<DemoSummary> {
	const { write } = options;
	// The scaffolded guard imports `xcsh-hooks/guards` as a value: serve the library, as the CLI does.
	registerEmbeddedModules();
	const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), "xcsh-hooks-demo-"));
	// The demo writes its own hooks and trusts them: it must never overwrite, nor run, anything of yours.
	if (existsSync(workspace) && readdirSync(workspace).length > 0)
		throw new XcshError("USAGE", `--workspace ${workspace} is not empty; the demo only runs in an empty or new directory`);
	writeExamples(workspace);
	const show = (path: string) => relative(workspace, path);

	write(`xcsh-hooks demo: a scripted agent session in ${workspace}`);
	const loaded = await discoverAndLoadHooks([], workspace, {
		trust: "all",
		settings: false,
		home: join(workspace, ".home"),
		climb: false,
	});
	write(`\n▸ discovered ${loaded.hooks.length} hooks`);
	for (const hook of loaded.hooks) write(`    ${show(hook.resolvedPath)}  (${hook.source?.provider}, ${hook.source?.level})`);
	for (const error of loaded.errors) write(`    ✗ ${error.path}: ${error.error}`);

	const session = SessionManager.create({ cwd: workspace, sessionDir: join(workspace, ".sessions") });
	const statusLine = createStatusLine();
	const ui = createNoOpUIContext();
	ui.notify = (message, type = "info") => write(`    notify(${type}): ${message}`);
	ui.setStatus = (key, value) => {
		statusLine.set(key, value);
		write(`    status line: ${statusLine.render(80) || "(cleared)"}`);
	};
	const runner = new HookRunner(loaded.hooks, workspace, session);
	const hookErrors: string[] = [];
	runner.onError((e) => {
		hookErrors.push(`${e.hookPath} (${e.event}): ${e.error}`);
		write(`    hook error in ${show(e.hookPath)} (${e.event}): ${e.error}`);
	});
	runner.initialize({
		getModel: () => ({ id: "scripted-model", provider: "demo" }),
		sendMessageHandler: (message) => void session.appendCustomMessage(message),
		appendEntryHandler: (customType, data) => void session.appendCustomEntry(customType, data),
		uiContext: ui,
		hasUI: false,
	});
	const tools = createBuiltinTools(workspace) as Record<string, AgentTool>;
	const wrapped = Object.fromEntries(Object.entries(tools).map(([name, tool]) => [name, new HookToolWrapper(tool, runner)]));

	write("\n▸ session_start");
	await runner.emit({ type: "session_start" });
	write(`\n▸ user: ${DEMO_PROMPT}`);
	session.appendMessage({ role: "user", content: DEMO_PROMPT, timestamp: Date.now() });
	const injected = await runner.emitBeforeAgentStart(DEMO_PROMPT);
	write(`    before_agent_start: ${injected?.message ? `injected ${injected.message.customType}` : "nothing injected"}`);
	await runner.emit({ type: "agent_start" });
	await runner.emit({ type: "turn_start", turnIndex: 0, timestamp: Date.now() });

	const context = await runner.emitContext(DEMO_CONTEXT);
	write(`    context: ${DEMO_CONTEXT.length} messages → ${context.length} sent to the model (debug messages filtered)`);

	const blocked: string[] = [];
	const allowed: string[] = [];
	const toolResults: ToolResultMessage[] = [];
	const steps = demoSteps(join(workspace, "no-such-dir", "really-not-here"));
	for (const [i, step] of steps.entries()) {
		if (step.kind === "say") {
			write(`\n▸ assistant: ${step.text}`);
			session.appendMessage({ role: "assistant", content: [{ type: "text", text: step.text }], timestamp: Date.now() });
			continue;
		}
		if (step.kind === "command") {
			write(`\n▸ /${step.name} ${step.args}`);
			await runner.getCommand(step.name)?.handler(step.args, runner.createCommandContext());
			continue;
		}
		const id = `call_${i}`;
		write(`\n▸ ${step.tool} ${JSON.stringify(step.input)}   (${step.note})`);
		session.appendMessage({
			role: "assistant",
			content: [{ type: "toolCall", id, name: step.tool, arguments: step.input }],
			timestamp: Date.now(),
		});
		let result: ToolResultMessage;
		try {
			const output = await wrapped[step.tool]?.execute(id, step.input);
			if (!output) throw new XcshError("INTERNAL", `no tool ${step.tool}`);
			allowed.push(step.tool);
			write(`    ✓ ran; the model sees:\n${indent(text(output))}`);
			result = { role: "toolResult", toolCallId: id, toolName: step.tool, content: output.content, isError: false, timestamp: Date.now() };
		} catch (error) {
			const message = error instanceof Error ? error.message : String(error);
			blocked.push(message);
			write(`    ✗ ${message}`);
			result = {
				role: "toolResult",
				toolCallId: id,
				toolName: step.tool,
				content: [{ type: "text", text: message }],
				isError: true,
				timestamp: Date.now(),
			};
		}
		session.appendMessage(result);
		toolResults.push(result);
	}

	write("\n▸ turn_end, agent_end");
	const lastMessage = { role: "assistant" as const, content: [{ type: "text" as const, text: "Done." }] };
	await runner.emit({ type: "turn_end", turnIndex: 0, message: lastMessage, toolResults });
	await runner.emit({ type: "agent_end", messages: [...context, lastMessage] });
	write("\n▸ session_shutdown");
	await runner.emit({ type: "session_shutdown" });
	const sessionFile = session.getSessionFile() as string;
	const entries = session.getEntries().length;
	session.close();

	await showBridge(workspace, write);

	write(`\n${blocked.length} tool calls blocked, ${allowed.length} allowed, ${hookErrors.length} hook errors.`);
	if (options.removeWorkspace) {
		rmSync(workspace, { recursive: true, force: true });
		write(`Session: ${entries} entries. The temp workspace is removed (pass --keep to look at its hooks and session).`);
		write("Start yours: `xcsh-hooks init my-guard` writes a guard and its test into .xcsh/hooks, approved.");
	} else {
		write(`Session (${entries} entries): ${sessionFile}`);
		write(
			`Hooks used: ${join(workspace, ".xcsh", "hooks")} — copy one into your project's .xcsh/hooks, then run ` +
				"`xcsh-hooks trust approve <file>` (a project hook runs only once approved), or start with `xcsh-hooks init my-guard`.",
		);
	}
	return { workspace, sessionFile, blocked, allowed, hookErrors };
}

/** Runs this program again in the workspace, with the workspace's own user directory as HOME. */
async function self(workspace: string, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
	const home = join(workspace, ".home");
	mkdirSync(home, { recursive: true });
	const proc = Bun.spawn([...selfArgv(), ...args], {
		cwd: workspace,
		env: { ...process.env, HOME: home, USERPROFILE: home, NO_COLOR: "1" },
		stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
		stdout: "pipe",
		stderr: "pipe",
	});
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, stdout, stderr };
}

/**
 * The same guard as Claude Code's hook: a real PreToolUse payload through `bridge claude`, then what
 * `install claude` would write. Both run with the workspace as project and its `.home` as HOME, so
 * nothing outside the workspace is read or written.
 */
async function showBridge(workspace: string, write: (line: string) => void): Promise<void> {
	const guard = join(workspace, ".xcsh", "hooks", "guard.ts");
	const guardEvent = agentSpec("claude").events[0]?.name ?? "";
	write(`\n▸ the same guard as Claude Code's hook: a captured ${guardEvent} payload → xcsh-hooks bridge claude`);
	const bridged = await self(workspace, ["bridge", "claude", "--no-discovery", "--hook", guard], sampleGuardCall(workspace));
	write(`    exit ${bridged.code}; Claude Code reads:\n${indent(bridged.stdout || "(nothing: no opinion)")}`);
	write("\n▸ xcsh-hooks install claude --dry-run   (what would go into .claude/settings.json)");
	const installed = await self(workspace, ["install", "claude", "--dry-run", "--cwd", workspace]);
	// stderr summarises the change; stdout is the whole file that would be written.
	write(indent(installed.stderr || installed.stdout));
	const entry = new RegExp(`"${guardEvent}": \\[[\\s\\S]*?\\n {4}\\]`).exec(installed.stdout)?.[0];
	if (entry) write(`    the guard's entry:\n${indent(entry.replace(/\n {4}/g, "\n"), "      ")}`);
}
