import { eventRule } from "../hooks/event-rules.ts";
import { statSync } from "node:fs";
import { wellFormedAnswer } from "../json.ts";
import { withTimeout } from "../timeouts.ts";
import { ownConfigProvider } from "./own-config.ts";
import { resolve } from "pathe";
import { dispatch } from "../host/dispatch.ts";
import { createHost, describeSkips, type Host } from "../host/host.ts";
import { mark } from "../profile.ts";
import { isRecord } from "../agents/_shared/answer.ts";
import { oneLine } from "../one-line.ts";
import { damageReason, lastingDamage } from "../intrinsic-damage.ts";
import {
	ArrayPrototypeJoin,
	ArrayPrototypePush,
	StringFromCharCode,
	StringPrototypeCharCodeAt,
	StringPrototypeReplace,
} from "../primordials.ts";
import { namingDecidingHooks } from "../decisions/decide.ts";
import { type BridgeDecision, decisionOf } from "./decision.ts";
import { askToAgent, isGuard, type Mapped, mapPayload, rewriteToAgent, toOutcome } from "./map.ts";
import { eventOf, parsePayload } from "./read-call.ts";
import { agentSessionFile, ensureSessionFile } from "./session.ts";
import { agentSessionView } from "./transcript.ts";
import type { AgentBridge, AnswerNotes, Outcome, Payload } from "../agents/_shared/bridge-types.ts";
import type { HookAgent } from "../hooks/types.ts";

/** Options of {@link runBridge}. */
export interface BridgeOptions {
	/** The hook payload exactly as the agent wrote it; `undefined` when nothing was piped, an Error when reading failed. */
	stdin: Uint8Array | undefined | Error;
	/** `--event`: the agent's event name, for payloads that do not carry it (Copilot camelCase). */
	event?: string | undefined;
	/**
	 * `event` only names the event of a payload that names none (`serve --http`'s `?event=`): a URL
	 * never turns a call the payload names as a guard event into another event. One that names another
	 * event than the payload is refused as a denied tool call (fail closed), naming both.
	 */
	eventIsFallback?: boolean | undefined;
	/** `--cwd`, already checked: overrides the project directory the agent names. */
	cwd?: string | undefined;
	/** `--hook` paths. */
	hookPaths: string[];
	/** Scan the discovery providers (`--no-discovery` turns it off). */
	discovery: boolean;
	/**
	 * `--managed`: the call comes from an entry `install --managed` wrote, so the organisation's system hook
	 * folder must be usable — one that fails the ownership check denies a tool call (others only warn).
	 */
	managed?: boolean | undefined;
	/**
	 * For a `managed` call: why the organisation's system hook folder cannot run (its ownership check), or
	 * `undefined` when it can. Given by the caller; a managed call without it is denied.
	 */
	managedFolderProblem?: (() => Promise<string | undefined>) | undefined;
	/** `--allow-load-errors`: a hook that failed to load does not deny tool calls. */
	allowLoadErrors?: boolean | undefined;
	/** Seconds before the bridge answers by itself (guards: deny); default the agent's. */
	timeoutSeconds?: number | undefined;
	/** Where the agent's variables (`CLAUDE_PROJECT_DIR`…) are read; default `process.env`. */
	env?: Record<string, string | undefined>;
	/** The directory the bridge command was started in, used when no project directory the agent names exists; default `process.cwd()`. */
	workingDir?: string | undefined;
	/** Where the call's hooks come from; default: loaded for this call and closed after it (`serve --http` lends pooled ones). */
	host?: BridgeHostSource;
	/**
	 * Called once the event is known, with what gives the answer should the process have to end before
	 * the hooks decide (`why`: what ended it, e.g. "SIGTERM"): the agent's deny for a guard event, "no
	 * opinion" for the others.
	 */
	onFallback?: ((answer: (why: string) => string) => void) | undefined;
}

/** What a bridge call asks of its {@link BridgeHostSource}. */
export interface BridgeHostRequest {
	agent: AgentBridge;
	payload: Payload;
	/** The folder the call runs in (`ctx.cwd`); discovery finds its project from it. */
	cwd: string;
	sessionId?: string | undefined;
	/** The session file of the agent session. */
	sessionFile: string;
	/** Who makes the call (`ctx.agent`): the agent, and the subagent when one made it. */
	actor: HookAgent;
	/** A diagnostic of this call (prefixed with the bridge's name). */
	say(line: string): void;
	/** A line for this call's stderr as it is. */
	stderr(line: string): void;
	/** A hook's `ctx.ui.notify` during this call. */
	notify(line: string): void;
}

/** The hooks of one call: `release` when the call is done with them. */
export interface BridgeHost {
	host: Host;
	release(): void;
	/** The host's skips and load errors were already reported (a pooled host): not repeated per call. */
	reported?: boolean;
}

/** Gives a bridge call its hooks. */
export type BridgeHostSource = (request: BridgeHostRequest) => Promise<BridgeHost>;

/** The one answer for the agent's stdout (`""`: write nothing) and the lines for stderr. */
export interface BridgeAnswer {
	stdout: string;
	stderr: string[];
	/** Guard events only: what was decided. */
	decision?: BridgeDecision | undefined;
	/** The settings in effect (`host.settings`: `decisionLog` from the user's file); absent when the call failed before the host was created. */
	settings?: Record<string, unknown> | undefined;
	/** A guard event's deny, written before any hook ran, with {@link LAST_RESORT} for its reason (see {@link runBridge}). */
	lastResort?: string | undefined;
}

/** The reason's stand-in in {@link BridgeAnswer.lastResort}. */
const LAST_RESORT = "xcsh-hooks-last-resort-reason";

/**
 * `text` with every character but letters, digits, space and `._/:;,()-` as `?`, with the start-up
 * built-ins: it is put into an answer formed before any hook ran, in a JSON string or a shell-quoted
 * one (Cline's), where it must need no escaping.
 */
function plainText(text: string): string {
	const out: string[] = [];
	for (let i = 0; i < text.length; i++) {
		const c = StringPrototypeCharCodeAt(text, i);
		const plain =
			(c >= 48 && c <= 59) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || (c >= 40 && c <= 47 && c !== 42 && c !== 43);
		ArrayPrototypePush(out, plain ? StringFromCharCode(c) : "?");
	}
	return ArrayPrototypeJoin(out, "");
}

const TIMEOUT = Symbol("timeout");

/** `pending`, or {@link TIMEOUT} after `ms` (a `--timeout` too long for a timer means no deadline, never "at once"). */
function withDeadline<T>(pending: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
	return withTimeout(pending, ms, () => TIMEOUT);
}

const isDirectory = (dir: string) => {
	try {
		return statSync(dir).isDirectory();
	} catch {
		return false;
	}
};

/**
 * The folder the call runs in (`ctx.cwd`): the first of the agent's project directories that exists, else
 * the current directory. It may be any folder inside the project: discovery finds the project from it.
 */
function projectDir(agent: AgentBridge, payload: Payload, options: BridgeOptions, say: (line: string) => void): string {
	const candidates = agent.projectDirs(payload, options.env ?? process.env).filter((dir): dir is string => !!dir);
	for (const dir of candidates) if (isDirectory(dir)) return resolve(dir);
	const fallback = options.workingDir ?? process.cwd();
	if (candidates.length > 0) say(`project directory ${candidates[0]} does not exist; using ${fallback}`);
	return fallback;
}

/**
 * A deny reason that names the hook that decided it (the runner knows which), when the reason does not
 * name it already. When the hooks ran out of time no hook decided: the reason names those guarding
 * tool calls, one of which is still running.
 */
function namingHook(reason: string, hook: string | undefined, host: Host, timedOut: boolean, type: string): string {
	const paths = timedOut
		? host.hooks.filter((h) => (h.handlers.get(type)?.length ?? 0) > 0).map((h) => h.resolvedPath)
		: hook?.includes("/")
			? [hook]
			: [];
	return namingDecidingHooks(reason, paths);
}

/**
 * Answers one agent hook call (docs/contract.md#bridges): the payload on stdin becomes our event, the hooks decide,
 * and the agent gets exactly one answer in its own protocol, always with exit 0.
 *
 * Failures, decided once here for every agent:
 * - On a guard (pre-tool) event everything that goes wrong is the agent's explicit deny, with a
 *   reason naming the cause: a block, a hook that failed to load (unless `allowLoadErrors`), threw,
 *   timed out or returned an invalid result, a payload that is not valid UTF-8/JSON or lacks a field,
 *   hooks that do not answer within the deadline, an error of the bridge itself.
 * - An event the bridge cannot name (stdin unreadable and no `--event`, or no event field) is treated
 *   as a guard: a payload nobody can read is never an allow.
 * - On every other event an error is "no opinion" on stdout and the error on stderr.
 * - An agent event with no counterpart, or one the bridge does not know, is "no opinion", never an error.
 */
export async function runBridge(agent: AgentBridge, options: BridgeOptions): Promise<BridgeAnswer> {
	const started = performance.now();
	const answer = await answerBridge(agent, options);
	answer.stdout = wellFormedAnswer(answer.stdout); // every agent's answer, whatever a hook put in it
	if (answer.decision) answer.decision.durationMs = performance.now() - started;
	// A hook changed built-ins for good (made them read-only): what formed the answer cannot be
	// trusted, so a guard event gets the deny formed before any hook ran, with the start-up built-ins.
	const lasting = lastingDamage();
	if (lasting !== undefined && answer.lastResort !== undefined) {
		const reason = plainText(damageReason(lasting));
		answer.stdout = StringPrototypeReplace(answer.lastResort, LAST_RESORT, () => reason);
		if (answer.decision) answer.decision = { ...answer.decision, decision: "deny", reason };
	}
	delete answer.lastResort;
	return answer;
}

/**
 * The outcome as the agent is given it: a deny or cancel reason is one line with its control
 * characters escaped (src/one-line.ts), whoever formed it — a hook, a thrown error's message, a
 * payload's parse error — since agents show it in a terminal and some read it line by line.
 */
function asGiven(outcome: Outcome): Outcome {
	return outcome.kind === "deny" || outcome.kind === "ask" || outcome.kind === "cancel" || outcome.kind === "deny-start"
		? { ...outcome, reason: oneLine(outcome.reason) }
		: outcome;
}

async function answerBridge(agent: AgentBridge, options: BridgeOptions): Promise<BridgeAnswer> {
	const stderr: string[] = [];
	const notes: AnswerNotes = { messages: [], warn: (line) => stderr.push(line) };
	const say = (line: string) => stderr.push(`xcsh-hooks bridge ${agent.name}: ${line}`);
	// Every answer of this call is written here.
	const give = (event: string, payload: unknown, outcome: Outcome) =>
		agent.answer(event, isRecord(payload) ? payload : {}, asGiven(outcome), notes);
	const parsed = parsePayload(options.stdin);
	const payload = "value" in parsed ? parsed.value : undefined;
	const named = eventOf(agent, payload, options);
	if ("mismatch" in named) {
		say(`${named.mismatch}; answered as a denied tool call (fail closed)`);
		const reason = `xcsh-hooks bridge ${agent.name}: ${named.mismatch} (fail closed)`;
		return {
			stdout: agent.denyUnknown(oneLine(reason)),
			stderr,
			decision: decisionOf(agent, "unknown", payload, { kind: "deny", reason }),
		};
	}
	const name = named.name;
	if (name === undefined) {
		const why = "error" in parsed ? parsed.error : "the payload names no event (pass --event)";
		say(`${why}; answered as a denied tool call (fail closed)`);
		const reason = `xcsh-hooks bridge ${agent.name}: ${why} (fail closed)`;
		return {
			stdout: agent.denyUnknown(oneLine(reason)),
			stderr,
			decision: decisionOf(agent, "unknown", payload, { kind: "deny", reason }),
		};
	}
	const guard = isGuard(agent.events[name]);
	const lastResort = guard ? give(name, payload, { kind: "deny", reason: LAST_RESORT }) : undefined;
	options.onFallback?.((why) =>
		give(
			name,
			payload,
			guard
				? { kind: "deny", reason: `xcsh-hooks bridge ${agent.name}: interrupted by ${why} before the hooks decided (fail closed)` }
				: { kind: "none" },
		),
	);
	let settings: Record<string, unknown> | undefined;
	const fail = (why: string): BridgeAnswer => {
		say(guard ? `${why}; the tool call is denied (fail closed)` : `${why}; no opinion`);
		const outcome: Outcome = guard ? { kind: "deny", reason: `xcsh-hooks bridge ${agent.name}: ${why} (fail closed)` } : { kind: "none" };
		const decision = guard ? decisionOf(agent, name, payload, outcome) : undefined;
		return { stdout: give(name, payload, outcome), stderr, decision, settings, lastResort };
	};
	if ("error" in parsed) return fail(parsed.error);
	const mapped = mapPayload(agent, name, payload);
	if (mapped.kind === "none") return { stdout: give(name, payload, { kind: "none" }), stderr };
	if (mapped.kind === "invalid") return fail(`invalid ${name} payload: ${mapped.errors.join("; ")}`);
	try {
		if (options.managed) {
			const problem = options.managedFolderProblem
				? await options.managedFolderProblem()
				: "the system hook folder's ownership check was not given to this bridge";
			if (problem) return fail(`${problem}; the organisation's guard cannot run`);
		}
		const { outcome, hook } = await decide(agent, payload as Payload, mapped, options, {
			guard,
			notes,
			stderr,
			say,
			settings: (value) => {
				settings = value;
			},
		});
		const decision = guard ? { ...decisionOf(agent, name, payload, outcome, mapped), hook } : undefined;
		return { stdout: give(name, payload, outcome), stderr, decision, settings, lastResort };
	} catch (error) {
		return fail(error instanceof Error ? error.message : String(error));
	}
}

interface Sinks {
	guard: boolean;
	notes: AnswerNotes;
	stderr: string[];
	say(line: string): void;
	settings(value: Record<string, unknown>): void;
}

/**
 * What every bridge host is loaded with for `request` (one call here, a pooled host in `serve --http`):
 * the agent's project and session, and never the agent's own config, whose hooks it runs itself.
 */
export function bridgeHostOptions(request: BridgeHostRequest, options: Pick<BridgeOptions, "hookPaths" | "discovery">) {
	return {
		cwd: request.cwd,
		hookPaths: options.hookPaths,
		discovery: options.discovery,
		sessionFile: request.sessionFile,
		excludeProviders: ownConfigProvider(request.agent.name),
		interactive: false,
	};
}

/** The default {@link BridgeHostSource}: the hooks loaded as `emit` does, for this call only. */
function hostForOneCall(options: BridgeOptions): BridgeHostSource {
	return async (request) => {
		const host = await createHost({
			...bridgeHostOptions(request, options),
			sessionView: (open) => agentSessionView(open, request.agent, request.payload, request.say),
			notify: request.notify,
			agent: () => request.actor,
		});
		return { host, release: () => host.close() };
	};
}

/** `ctx.agent` for a payload: the agent, and the subagent its fields name. */
export function actorOf(agent: AgentBridge, payload: Payload, event: string): HookAgent {
	// On a subagent's own start and stop (the events a bridge builds from the subagent) the agent that
	// starts or awaits it acts, not the subagent.
	const subagent = eventRule(event)?.bridge === "subagent" ? undefined : agent.subagent?.(payload);
	return subagent ? { name: agent.name, subagent } : { name: agent.name };
}

/** Loads the hooks as `emit` does, in the agent's project and session, and dispatches the event. */
async function decide(
	agent: AgentBridge,
	payload: Payload,
	mapped: Extract<Mapped, { kind: "event" }>,
	options: BridgeOptions,
	sinks: Sinks,
): Promise<{ outcome: Outcome; hook?: string | undefined }> {
	const { guard, notes, stderr, say } = sinks;
	const cwd = options.cwd ?? projectDir(agent, payload, options, say);
	const sessionId = agent.sessionId(payload);
	const source = options.host ?? hostForOneCall(options);
	const { host, release, reported } = await source({
		agent,
		payload,
		cwd,
		sessionId,
		sessionFile: agentSessionFile(agent.name, sessionId),
		actor: actorOf(agent, payload, mapped.event.type),
		say,
		stderr: (line) => stderr.push(line),
		notify: (line) => {
			notes.messages.push(line.trimEnd());
			stderr.push(line.trimEnd());
		},
	});
	mark("host");
	try {
		sinks.settings(host.settings as unknown as Record<string, unknown>);
		notes.handles = [...new Set(host.hooks.flatMap((h) => [...h.handlers.keys()]))];
		if (host.hooks.length > 0) ensureSessionFile(host.sessionFile, sessionId, cwd);
		if (!reported) {
			stderr.push(...describeSkips(host));
			for (const e of host.loadErrors) stderr.push(`hook failed to load: ${e.path}: ${e.error}`);
		}
		mark("session+skips");
		const seconds = options.timeoutSeconds ?? agent.timeoutSeconds;
		const dispatched = await withDeadline(dispatch(host, mapped.event, options.allowLoadErrors === true), seconds * 1000);
		let outcome: Outcome;
		if (dispatched === TIMEOUT) {
			say(`hooks did not answer within ${seconds} s${guard ? "; the tool call is denied (fail closed)" : "; no opinion"}`);
			outcome = guard ? { kind: "deny", reason: `hooks did not answer within ${seconds} s (fail closed)` } : { kind: "none" };
		} else {
			outcome = toOutcome(mapped.event, dispatched);
			if (outcome.kind === "rewrite") outcome = await rewriteToAgent(mapped, outcome.input);
			else if (outcome.kind === "ask") outcome = await askToAgent(mapped, outcome);
		}
		for (const e of host.errors) stderr.push(`hook error (${e.event}) ${e.hookPath}: ${e.error}`);
		// The hook that decided, as the CLI's own entries name it; none when the hooks ran out of time.
		const hook = dispatched === TIMEOUT ? undefined : dispatched.hookPath;
		if (outcome.kind !== "deny" && outcome.kind !== "ask") return { outcome, hook };
		return { outcome: { ...outcome, reason: namingHook(outcome.reason, hook, host, dispatched === TIMEOUT, mapped.event.type) }, hook };
	} finally {
		release();
	}
}
