import { dispatch } from "../host/dispatch.ts";
import type { HookEvent } from "../hooks/types.ts";
import { hookEventTypes, isHookEvent, isHookEventType } from "../hooks/checks.ts";
import { deniedResult, eventRule } from "../hooks/event-rules.ts";
import {
	cliError,
	EXIT_BLOCKED,
	EXIT_OK,
	globalArgs,
	hookPaths,
	parseJson,
	printJson,
	projectDir,
	readStdin,
	toJson,
	writeAll,
	writeErr,
	defineCommand,
} from "./_shared.ts";
import { createHost, describeSkips, type Host } from "../host/host.ts";
import { loggedDecision, toolCallDecision } from "../decisions/decide.ts";
import { logDecision } from "../decisions/write.ts";
import { exitProcess } from "../process/exit-guard.ts";
import { onEndingSignal } from "../process/signals.ts";
import { claimStdout, protocolFd } from "../process/stdout.ts";

/** Reads the event JSON from `--data` or stdin, fills `type` and `toolCallId`, and validates it. */
async function readEvent(type: string, data: string | undefined): Promise<HookEvent> {
	if (!isHookEventType(type))
		throw cliError(
			(await import("../suggest.ts")).unknownName("event type", type, hookEventTypes(), "xcsh-hooks emit --help lists the events"),
		);
	const text = data ?? readStdin();
	if (text === undefined) throw cliError(`no event given: pass --data '<json>' or pipe the event JSON on stdin`);
	const value = parseJson(text, data === undefined ? "stdin" : "--data");
	if (typeof value !== "object" || value === null || Array.isArray(value))
		throw cliError(`the event must be a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`);
	const event = value as Record<string, unknown>;
	if (event.type !== undefined && event.type !== type)
		throw cliError(`the event's type "${String(event.type)}" does not match the command's "${type}"`);
	event.type = type;
	if (eventRule(type)?.callId && event.toolCallId === undefined) event.toolCallId = `call_${crypto.randomUUID().slice(0, 8)}`;
	// A tool's structured details are its own business (many have none): as an agent's bridge does, emit passes none.
	if (type === "tool_result" && !("details" in event)) event.details = undefined;
	if (isHookEvent(event)) return event;
	// TypeBox is loaded only to name the offending fields.
	const checked = (await import("../hooks/validate.ts")).validateEvent(event);
	throw cliError(`invalid ${type} event: ${checked.ok ? "rejected" : checked.errors.join("; ")}`);
}

/**
 * A signal before the answer is out (a hook signalling its own process, or the caller giving up) ends
 * `emit` deliberately instead of by the signal: a `tool_call` is answered as blocked (the JSON, the
 * reason on stderr, exit 2) and put on record as a deny; any other event ends with `128 + n` and a line
 * on stderr. Returns the function that marks the real answer as being written (a signal then waits for it).
 */
function answerOnSignal(event: HookEvent, session: string | undefined, settings: () => Host["settings"] | undefined): () => void {
	let answered = false;
	onEndingSignal((signal) => {
		if (answered) return;
		answered = true;
		const why = `interrupted by ${signal} before the hooks decided`;
		if (!eventRule(event.type)?.guard) {
			writeAll(2, `xcsh-hooks emit: ${why}\n`);
			// node:os only here: it stays off emit's start-up.
			void import("node:os").then(({ constants }) => exitProcess(128 + (constants.signals[signal] ?? 0)));
			return;
		}
		const reason = `${why} (fail closed)`;
		logDecision(
			{ settings: settings() ?? {} },
			{ agent: "cli", session, event: event.type, tool: toolOf(event), decision: "deny", reason },
		);
		writeAll(protocolFd() ?? 1, `${toJson({ event, result: deniedResult(event.type, reason), errors: [], loadErrors: [] }, 2)}\n`);
		writeAll(2, `${reason}\n`);
		exitProcess(EXIT_BLOCKED);
	});
	return () => {
		answered = true;
	};
}

/** The tool a guard event names, for its decision record. */
const toolOf = (event: HookEvent): string | undefined => (event as { toolName?: string }).toolName;

export const emitCommand = defineCommand({
	meta: {
		name: "emit",
		description: "Dispatch one event to the hooks and print the result",
		details: "Dispatch one event to the hooks and print {event, result, errors, loadErrors}",
	},
	args: {
		type: { type: "positional", description: `Event type: ${hookEventTypes().join(", ")}` },
		data: { type: "string", description: "Event JSON (default: read from stdin); `type` may be omitted", valueHint: "json" },
		"allow-load-errors": { type: "boolean", description: "Let tool_call run even when a hook failed to load" },
		session: { type: "string", description: "Session JSONL file for sendMessage/appendEntry", valueHint: "file" },
		...globalArgs,
	},
	async run({ args }) {
		const event = await readEvent(args.type as string, args.data);
		claimStdout(); // the JSON answer is all stdout holds; hooks' output goes to stderr
		let host: Host | undefined;
		const answering = answerOnSignal(event, args.session, () => host?.settings);
		host = await createHost({
			cwd: projectDir(args.cwd),
			hookPaths: hookPaths(args),
			discovery: args.discovery,
			sessionFile: args.session,
		});
		try {
			const started = performance.now();
			const dispatched = await dispatch(host, event, args["allow-load-errors"] === true);
			answering(); // decided: from here the real answer is logged and written
			const { result, stopped } = dispatched;
			if (eventRule(event.type)?.guard)
				logDecision(host, {
					agent: "cli",
					session: args.session,
					event: event.type,
					tool: toolOf(event),
					...loggedDecision(toolCallDecision(dispatched)),
					durationMs: Math.round(performance.now() - started),
				});
			for (const line of describeSkips(host)) await writeErr(line);
			await printJson({ event, result: result ?? null, errors: host.errors, loadErrors: host.loadErrors });
			// An ask is not an allow: `emit` cannot put it to anyone, so it exits as a block does.
			if (dispatched.asked !== undefined) {
				await writeErr(`asked: ${dispatched.asked}`);
				return EXIT_BLOCKED;
			}
			if (!stopped) return EXIT_OK;
			await writeErr(stopped);
			return EXIT_BLOCKED;
		} finally {
			host.close();
		}
	},
});
