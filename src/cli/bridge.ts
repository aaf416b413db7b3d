import { bridgeNames, loadBridge } from "../bridges/index.ts";
import { readStdinBytes } from "../host/stdin.ts";
import { recordDecision } from "../bridges/decision.ts";
import { runBridge } from "../bridges/run.ts";
import { mark } from "../profile.ts";
import { exitProcess } from "../host/exit-guard.ts";
import { onEndingSignal } from "../host/signals.ts";
import { claimStdout, protocolFd } from "../host/stdout.ts";
import { CliError, EXIT_OK, writeAll, hookArgs, hookPaths, projectDir, writeErr, writeOut, defineCommand } from "./_shared.ts";

/** `--timeout SECONDS`: a positive number. */
function timeoutSeconds(value: unknown): number | undefined {
	if (value === undefined) return undefined;
	const seconds = Number(value);
	if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(`--timeout ${String(value)}: expected a positive number of seconds`);
	return seconds;
}

/**
 * A signal (the agent's own timeout, or a hook signalling its own process) must not end the call with
 * no answer, which Codex and Gemini read as "allow": once the event is known, every signal that would
 * end the process (src/host/signals.ts: SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM…)
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

/** `xcsh-hooks bridge <agent>`: one agent hook call in, exactly one answer in that agent's protocol out, exit 0. */
export const bridgeCommand = defineCommand({
	meta: { name: "bridge", description: "Be another agent's hook command: read its hook JSON on stdin, answer in its protocol" },
	args: {
		agent: { type: "positional", description: `The agent: ${bridgeNames().join(", ")}` },
		event: {
			type: "string",
			description: "The agent's event name, for payloads that carry none (Copilot camelCase events)",
			valueHint: "name",
		},
		timeout: {
			type: "string",
			description: "Seconds before the bridge answers by itself, denying a tool call (default: below the agent's own hook timeout)",
			valueHint: "seconds",
		},
		"allow-load-errors": { type: "boolean", description: "Let tool calls run even when a hook failed to load" },
		// `install` ends its entries with --installed-by=xcsh-hooks so that it (and uninstall) can tell them from the user's.
		"installed-by": { type: "string", description: "Marks an entry xcsh-hooks install wrote; changes nothing", valueHint: "xcsh-hooks" },
		...hookArgs,
	},
	async run({ args }) {
		mark("command");
		claimStdout(); // the one answer is all stdout holds; hooks' output goes to stderr (SPEC §12)
		const name = args.agent as string;
		const agent = await loadBridge(name);
		mark("stdout+agent");
		if (!agent) throw new CliError((await import("../suggest.ts")).unknownName("agent", name, bridgeNames()));
		let stdin: Uint8Array | undefined | Error;
		try {
			stdin = readStdinBytes();
		} catch (error) {
			stdin = error instanceof Error ? error : new Error(String(error));
		}
		mark("stdin");
		const answer = await runBridge(agent, {
			stdin,
			event: args.event,
			cwd: args.cwd === undefined ? undefined : projectDir(args.cwd),
			hookPaths: hookPaths(args),
			discovery: args.discovery,
			allowLoadErrors: args["allow-load-errors"] === true,
			timeoutSeconds: timeoutSeconds(args.timeout),
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
	},
});
