import { XcshError } from "../errors.ts";
import { onEndingSignal } from "../process/signals.ts";
import { MAX_PAYLOAD_BYTES, readStdinAhead } from "../process/stdin.ts";
import { INSTALL_MARKER } from "../install/marker.ts";
import { bridgeSocketPath } from "../paths.ts";
import { mark } from "../profile.ts";
import { MAX_TIMER_MS } from "../timeouts.ts";
import { PACKAGE_VERSION } from "../package-version.ts";
import { CLIENT_AGENTS, type ClientAgent } from "./client-agents.ts";
import { OTLP_VARIABLES } from "../decisions/otlp-queue.ts";
import { writeAnswer } from "./write-answer.ts";
import { encodeRequest, GO_LINE, newerVersion, notAnAnswer, type ServerAnswer, type SocketRequest, writeSome } from "./protocol.ts";

/*
 * `bridge <agent>` with a running `serve --socket` (docs/contract.md#performance-budgets, #bridges): the call is answered by hooks that
 * are already loaded, and this process only carries the payload there and the answer back — no
 * settings, discovery or hook imports here, so a call costs about what a one-file Bun script does.
 * This module is on the path of every start-up: it imports nothing heavier than the paths — no
 * node:fs (loading it costs a process 1–2 ms, more than the whole forwarded exchange) and not the
 * agent registry (client-agents.ts). Its file checks are Bun's own asynchronous stats.
 *
 * The server is looked for at one place, `~/.xcsh/agent/bridge.sock`, and trusted only as the server
 * trusts its folder: the folder must be the user's and writable by nobody else, and the socket the
 * user's (see {@link socketProblem}). Whatever prevents forwarding runs the call here instead, with
 * the same semantics, so a server is never needed:
 * - nothing listens there (no file, not a socket, or a stale one): the call runs locally, and starts a
 *   server for the calls after it (autostart.ts);
 * - the server is of another version: locally (it refused before running anything); a server older
 *   than this client gives the socket up, and this call starts a new one;
 * - the folder or the socket is not the user's alone: locally, with one warning (nothing is sent there);
 * - the call uses options the server cannot take over (`--hook`, `--no-discovery`, `--cwd`, help,
 *   anything unusual): locally;
 * - the call is a managed entry's (`--managed`), or the machine has the organisation's system hook folder
 *   (`install --managed`): always locally. The
 *   server is the user's process, and a user's stand-in for it could answer "allow"; the managed guard
 *   must not depend on anything the user runs (it costs such calls the server's speed-up).
 * - the server refuses the request, fails, or does not say it is ready within {@link ACCEPT_MS}
 *   (busy or stuck): locally — and the server, which runs nothing before this client's `go`, never runs it.
 * Once `go` is sent (protocol.ts), the server's hooks may be running: any failure from then on
 * (the connection drops, a reply that is not one answer, no answer past the agent's deadline, a
 * signal) is the answer a local bridge gives when its hooks fail — the agent's deny for a guard
 * event, "no opinion" for the others — never a second run of the hooks.
 */

/** The system hook folder (src/discovery/system.ts), repeated here: this module imports nothing of discovery. */
const SYSTEM_HOOKS_DIR = "/etc/xcsh/hooks";

/** How long the server has to say it is ready for a request before the call runs locally. */
const ACCEPT_MS = 1000;
/**
 * How much longer than the hooks' deadline the server has to send its answer. The agent's own timeout
 * (`install` writes 60 s) started before this process did, and an agent that times a hook out lets the
 * call run (Codex, Gemini, Qwen, Droid): the hooks' deadline (55 s) plus this must end well inside it, so
 * a stalled server's call is still answered with the deny, by this process.
 */
export const ANSWER_GRACE_MS = 2000;

/** What a forwarded call carries besides its payload. */
export interface Forwarding {
	agent: string;
	event?: string | undefined;
	timeoutSeconds?: number | undefined;
	allowLoadErrors: boolean;
	/** `--managed`: an entry `install --managed` wrote; such a call always runs here, never on the user's server. */
	managed?: boolean;
}

/** The agent called `name` (an own key only: no `constructor` or `__proto__`). */
function clientAgent(name: string): ClientAgent | undefined {
	return Object.hasOwn(CLIENT_AGENTS, name) ? CLIENT_AGENTS[name] : undefined;
}

/**
 * The forwarding of a `bridge` command line, or `undefined` when it must run locally: a known bridged agent
 * followed only by `--event NAME`, `--timeout SECONDS` (positive), `--allow-load-errors` and `--managed` (a
 * managed entry's call, which is never forwarded), each at most once, and the marker `install` ends its
 * entries with (it changes nothing about the call).
 */
export function forwarding(argv: readonly string[]): Forwarding | undefined {
	const agent = argv[1];
	if (argv[0] !== "bridge" || agent === undefined || clientAgent(agent) === undefined) return undefined;
	const result: Forwarding = { agent, allowLoadErrors: false };
	const seen = new Set<string>();
	for (let i = 2; i < argv.length; i++) {
		const arg = argv[i] as string;
		const eq = arg.indexOf("=");
		const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
		if (seen.has(flag)) return undefined;
		seen.add(flag);
		if (arg === INSTALL_MARKER) continue;
		if (flag === "--allow-load-errors" && eq < 0) {
			result.allowLoadErrors = true;
			continue;
		}
		if (flag === "--managed" && eq < 0) {
			result.managed = true;
			continue;
		}
		if (flag !== "--event" && flag !== "--timeout") return undefined;
		const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
		if (!value || value.startsWith("-")) return undefined;
		if (flag === "--event") result.event = value;
		else {
			const seconds = Number(value);
			if (!Number.isFinite(seconds) || seconds <= 0) return undefined; // the local command explains
			result.timeoutSeconds = seconds;
		}
	}
	return result;
}

/**
 * The agent's project-directory variable (`CLAUDE_PROJECT_DIR`…), which the server's own environment
 * lacks, and the OpenTelemetry variables that say where this call's decisions are exported.
 */
function projectVariables(agent: string): Record<string, string> {
	const variables: Record<string, string> = {};
	for (const name of [clientAgent(agent)?.projectVariable, ...OTLP_VARIABLES]) {
		const value = name === undefined ? undefined : process.env[name];
		if (name !== undefined && value) variables[name] = value;
	}
	return variables;
}

/** The request line of `call`. */
export function requestLine(call: Forwarding, pwd: string, env: Record<string, string>, length: number): SocketRequest {
	return {
		agent: call.agent,
		version: PACKAGE_VERSION,
		pwd,
		env,
		...(call.event === undefined ? {} : { event: call.event }),
		...(call.timeoutSeconds === undefined ? {} : { timeout: call.timeoutSeconds }),
		...(call.allowLoadErrors ? { allowLoadErrors: true } : {}),
		length,
	};
}

/**
 * Why the server at `socket` is not to be trusted — what `serve --socket` itself requires of its folder
 * (the user's, writable by nobody else) and the socket (the user's) — or `null` when it is; `undefined`
 * when there is nothing to forward to (no file there, or not a socket). With the folder checked,
 * only the user can have put what is at the path, so following a link there is the user's choice.
 * Both stats run at once, through Bun (see the module note on node:fs).
 */
export async function socketProblem(socket: string): Promise<string | null | undefined> {
	const folder = socket.slice(0, socket.lastIndexOf("/")) || "/";
	const [dir, file] = await Promise.all([
		Bun.file(folder)
			.stat()
			.catch(() => undefined),
		Bun.file(socket)
			.stat()
			.catch(() => undefined),
	]);
	if (!file?.isSocket()) return undefined;
	const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
	if (uid === undefined) return null; // no owners to compare (Windows); the server checks the same
	if (!dir?.isDirectory()) return `${folder} is not a folder`;
	if (dir.uid !== uid) return `${folder} belongs to another user (uid ${dir.uid})`;
	if ((dir.mode & 0o022) !== 0)
		return `${folder} may be written by other users (mode ${(dir.mode & 0o777).toString(8)}); run: chmod go-w ${folder}`;
	if (file.uid !== uid) return `${socket} belongs to another user (uid ${file.uid})`;
	return null;
}

/**
 * Whether a socket may be at `path`: Bun's `file(path).size` is one synchronous stat on this thread
 * (µs; the async stats go through the thread pool, ≈0.7 ms, and node:fs is not loaded here), and it is
 * `Infinity` only for what is not a regular file or folder (a socket, a pipe, a device). Only a fast
 * "no": anything it cannot rule out is a "maybe", which the stats then decide.
 */
function mayBeSocket(path: string): boolean {
	try {
		return Bun.file(path).size === Number.POSITIVE_INFINITY;
	} catch {
		return true;
	}
}

/** Later than any file time (year 9999, in ms): Bun reports a path it cannot stat with a larger one (2^52 − 1). */
const NO_FILE_TIME = 253_402_300_800_000;

/**
 * Whether the organisation's system hook folder is there (then every call runs locally), empty or not:
 * synchronous stats on this thread through `Bun.file(…)` (the thread pool's cost ≈0.1 ms more). Anything
 * at the path counts — a size, or a modification time Bun could read. A path Bun cannot stat at all
 * (missing, or a folder above it the user may not search, whose hooks a local run could not read either)
 * does not.
 */
function managedMachine(): boolean {
	try {
		const file = Bun.file(SYSTEM_HOOKS_DIR);
		const time = file.lastModified;
		return file.size > 0 || (Number.isFinite(time) && time > 0 && time < NO_FILE_TIME);
	} catch {
		return true;
	}
}

/** One connection to the server: the request out, its reply lines in order, each within a deadline. */
interface Exchange {
	send(request: Uint8Array): void;
	/** The next reply line, parsed; rejects when the connection ends first, the line is not JSON, or after `ms`. */
	next(ms: number): Promise<unknown>;
	close(): void;
}

/** Connects; `undefined` when nothing could be connected to (no server, a stale socket). */
function connect(path: string): Promise<Exchange | undefined> {
	const lines: string[] = [];
	let ended: Error | undefined;
	let wake: (() => void) | undefined;
	let buffered = "";
	let pending: Uint8Array = new Uint8Array(0);
	const decoder = new TextDecoder("utf-8", { fatal: true });
	const notify = () => {
		const w = wake;
		wake = undefined;
		w?.();
	};
	return new Promise((resolve) => {
		let socket: { end(): void; write(data: Uint8Array): number } | undefined;
		const exchange: Exchange = {
			send(request) {
				if (socket) pending = writeSome(socket, request);
			},
			async next(ms) {
				const until = performance.now() + ms;
				while (lines.length === 0 && !ended) {
					const left = until - performance.now();
					if (left <= 0) throw new XcshError("HOOK_TIMEOUT", `no reply within ${Math.round(ms / 1000)} s`);
					let timer: ReturnType<typeof setTimeout> | undefined;
					await new Promise<void>((done) => {
						wake = done;
						// Capped at what a timer can hold (a huge --timeout would overflow and fire at once).
						timer = setTimeout(done, Math.min(left, MAX_TIMER_MS));
					});
					clearTimeout(timer);
				}
				const line = lines.shift();
				if (line === undefined) throw ended ?? new XcshError("CONNECTION_FAILED", "the connection closed");
				return JSON.parse(line) as unknown;
			},
			close: () => socket?.end(),
		};
		Bun.connect({
			unix: path,
			socket: {
				open(s) {
					socket = s;
					resolve(exchange);
				},
				drain(s) {
					pending = writeSome(s, pending);
				},
				data(_s, chunk) {
					try {
						buffered += decoder.decode(chunk, { stream: true });
					} catch {
						ended = new XcshError("CONNECTION_FAILED", "the reply is not UTF-8");
					}
					for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
						lines.push(buffered.slice(0, end));
						buffered = buffered.slice(end + 1);
					}
					notify();
				},
				close() {
					ended ??= new XcshError("CONNECTION_FAILED", "the connection closed before the answer");
					notify();
				},
				error(_s, error) {
					ended = error;
					notify();
				},
				connectError() {
					resolve(undefined);
				},
			},
		}).catch(() => resolve(undefined));
	});
}

/**
 * Answers a `bridge` call through `serve --socket` and resolves the exit code, or `undefined` when
 * the call must run locally (then stdin, if it was read, is handed to the local run).
 */
export async function forwardBridgeCall(argv: readonly string[], socketPath?: string): Promise<number | undefined> {
	const call = forwarding(argv);
	if (!call || call.managed) return undefined;
	const socket = socketPath ?? bridgeSocketPath();
	// First a quick look: no socket there is the common cold call, which then pays none of the rest.
	// Else the stats go to Bun's thread pool while stdin is read; only a socket that passed them is
	// connected to.
	if (!mayBeSocket(socket)) return startAndRunHere(call, "no hook server was running"); // stdin is the local run's
	if (managedMachine()) return undefined;
	const checking = socketProblem(socket);
	const reading = readStdinAhead();
	const problem = await checking;
	if (problem !== null) {
		await reading; // what it read goes to the local run whole
		if (problem === undefined) return startAndRunHere(call, "no hook server was running");
		await Bun.write(
			Bun.stderr,
			`xcsh-hooks bridge ${call.agent}: not using the hook server at ${socket}: ${problem}; the call runs here\n`,
		);
		return undefined;
	}
	const connecting = connect(socket);
	const [stdin, exchange] = await Promise.all([reading, connecting]);
	if (!exchange) return startAndRunHere(call, "no hook server was running"); // a stale socket
	if (stdin === undefined || stdin instanceof Error || stdin.length > MAX_PAYLOAD_BYTES) {
		exchange.close();
		return undefined; // the local run is handed what was read (or the error) and says what is wrong
	}
	exchange.send(encodeRequest(requestLine(call, process.cwd(), projectVariables(call.agent), stdin.length), stdin));
	let first: { ready?: unknown; accepted?: unknown; version?: unknown } | null | undefined;
	try {
		first = (await exchange.next(ACCEPT_MS)) as typeof first;
	} catch {
		first = undefined; // no reply in time, or not one line of JSON
	}
	// A server of the protocol's first version runs at once: its hooks may be running, so it is the owner.
	if (first?.ready !== true && first?.accepted !== true) {
		// No `go` was sent: the server runs nothing of this call (refused, busy, stuck, not ours): run here.
		exchange.close();
		const theirs = first?.version;
		if (typeof theirs === "string" && theirs !== PACKAGE_VERSION && newerVersion(PACKAGE_VERSION, theirs))
			return startAndRunHere(call, `replacing the hook server of version ${theirs}`);
		return undefined;
	}
	if (first.ready === true) {
		try {
			exchange.send(new TextEncoder().encode(GO_LINE));
		} catch {
			// The connection is gone: the answer wait says so. Once `go` may be out, the call is the server's.
		}
	}
	mark("forwarded");
	// From here the server's hooks may be running: a failure is a failed call, never a second run.
	let settled = false;
	const onSignal = (signal: string) => {
		if (settled) return;
		settled = true;
		exchange.close();
		void answerUnreached(call, stdin, `interrupted by ${signal} before the hook server answered`).then((code) => process.exit(code));
	};
	onEndingSignal(onSignal); // every signal that would end the process without an answer (src/process/signals.ts)
	const seconds = call.timeoutSeconds ?? clientAgent(call.agent)?.timeoutSeconds ?? 25;
	let answer: ServerAnswer | Error;
	try {
		const reply = await exchange.next(seconds * 1000 + ANSWER_GRACE_MS);
		const wrong = notAnAnswer(reply);
		answer = wrong === undefined ? (reply as ServerAnswer) : new XcshError("CONNECTION_FAILED", wrong);
	} catch (error) {
		answer = error instanceof Error ? error : new XcshError("INTERNAL", String(error));
	}
	exchange.close();
	if (settled) return new Promise<number>(() => {}); // a signal came first: its handler answers and exits
	settled = true;
	if (answer instanceof Error) return answerUnreached(call, stdin, `the hook server at ${socket} failed: ${answer.message}`);
	mark("answered");
	await writeAnswer(answer);
	return 0;
}

/** No server to forward to: starts one for the calls after this one (unless turned off); this call runs here. */
async function startAndRunHere(call: Forwarding, why: string): Promise<undefined> {
	// `XCSH_HOOKS_SERVER=off` is looked at here too (autostart.ts reads it with the settings): then the
	// cold call does not load that module at all.
	if (["off", "0", "false"].includes((process.env.XCSH_HOOKS_SERVER ?? "").toLowerCase())) return undefined;
	// A managed machine runs every call locally: a server would never be used.
	if (managedMachine()) return undefined;
	const { startServer } = await import("./autostart.ts");
	await startServer(`bridge ${call.agent}: ${why}`);
	return undefined;
}

/** The answer of a call whose hooks ran on a server that failed before answering (see the module note). */
async function answerUnreached(call: Forwarding, stdin: Uint8Array, why: string): Promise<number> {
	const { answerFailedCall } = await import("./failed-call.ts");
	return answerFailedCall(call, stdin, why);
}
