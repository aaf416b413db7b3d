import { XcshError } from "../errors.ts";
import { recordDecision } from "../decisions/write.ts";
import { forwarding } from "../socket/forward.ts";
import { loadBridge } from "../agent-call/index.ts";
import { type BridgeOptions, runBridge } from "../agent-call/run.ts";
import { exitProcess } from "../process/exit-guard.ts";
import { onEndingSignal } from "../process/signals.ts";
import { readStdinBytes } from "../process/stdin.ts";
import { claimStdout, protocolFd } from "../process/stdout.ts";
import { mark } from "../profile.ts";
import { EXIT_OK, writeAll, writeErr, writeOut } from "./_shared.ts";

/*
 * The body of `xcsh-hooks bridge <agent>`, without the CLI around it: `src/cli.ts` runs a plain bridge
 * call (the command line `install` writes) straight from here, so the call never loads the argument
 * parser, the command table or any other command's code (≈ 1.4 ms of a cold call); `bridge.ts` runs
 * every other bridge command line through the same function.
 */

/** What a bridge call is asked: the agent and the options of its command line, already checked. */
export interface BridgeCall extends Pick<BridgeOptions, "event" | "cwd" | "hookPaths" | "discovery" | "timeoutSeconds"> {
	agent: string;
	allowLoadErrors: boolean;
	/** `--managed`: the entry `install --managed` wrote (see BridgeOptions.managed). */
	managed?: boolean | undefined;
}

/**
 * A signal (the agent's own timeout, or a hook signalling its own process) must not end the call with
 * no answer, which Codex and Gemini read as "allow": once the event is known, every signal that would
 * end the process (src/process/signals.ts: SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM…)
 * writes the fallback answer (the deny, for a guard event) and exits 0. Once the real answer is being
 * written a signal is ignored: the command ends as soon as it is out, and ending earlier could cut it short.
 */
function writeOutSync(text: string): void {
	writeAll(protocolFd() ?? 1, text.endsWith("\n") ? text : `${text}\n`);
}

let answered = false;

function answerOnSignal(answer: (why: string) => string): void {
	onEndingSignal((signal) => {
		if (answered) return;
		answered = true;
		const text = answer(signal);
		if (text) writeOutSync(text);
		exitProcess(EXIT_OK);
	});
}

/**
 * Runs one agent hook call: the payload on stdin in, exactly one answer in the agent's protocol on stdout.
 * Resolves `undefined` when `call.agent` is no agent (the caller says so), else the exit code (0).
 */
export async function runBridgeCall(call: BridgeCall): Promise<number | undefined> {
	mark("command");
	claimStdout(); // the one answer is all stdout holds; hooks' output goes to stderr (docs/contract.md#bridges)
	const agent = await loadBridge(call.agent);
	mark("stdout+agent");
	if (!agent) return undefined;
	let stdin: Uint8Array | undefined | Error;
	try {
		stdin = readStdinBytes();
	} catch (error) {
		stdin = error instanceof Error ? error : new XcshError("INVALID_INPUT", String(error));
	}
	mark("stdin");
	const answer = await runBridge(agent, {
		stdin,
		event: call.event,
		cwd: call.cwd,
		hookPaths: call.hookPaths,
		discovery: call.discovery,
		allowLoadErrors: call.allowLoadErrors,
		managed: call.managed === true,
		// Loaded only for a managed entry's call (the bridge layer may not import discovery).
		managedFolderProblem: async () => (await import("../discovery/system.ts")).managedFolderProblem(),
		timeoutSeconds: call.timeoutSeconds,
		onFallback: answerOnSignal,
	});
	mark("dispatched");
	recordDecision(answer);
	mark("decision-log");
	answered = true; // from here on a signal changes nothing: the real answer is being written
	for (const line of answer.stderr) await writeErr(line);
	if (answer.stdout) await writeOut(answer.stdout);
	mark("answer");
	return EXIT_OK;
}

/**
 * The exit code of a plain bridge command line — `bridge <agent>` with at most `--event`, `--timeout`,
 * `--allow-load-errors`, `--managed` and the install marker, the same lines `serve --socket` takes over (see
 * `forwarding`) — or `undefined` for any other command line, which the CLI then parses as usual
 * (and explains when it is wrong). An error of the bridge itself ends like the CLI's: one line, exit 1.
 */
export async function plainBridgeCall(argv: readonly string[]): Promise<number | undefined> {
	const call = forwarding(argv);
	if (!call) return undefined;
	try {
		return await runBridgeCall({ ...call, hookPaths: [], discovery: true });
	} catch (error) {
		await writeErr(`xcsh-hooks bridge: ${error instanceof Error ? error.message : String(error)}`);
		return 1;
	}
}
