import { writeOrDrop } from "../host/closed-pipe.ts";
import { MAX_PAYLOAD_BYTES, readStdinAhead } from "../host/stdin.ts";
import { bridgeSocketPath } from "../paths.ts";
import { mark } from "../profile.ts";
import { MAX_TIMER_MS } from "../timeouts.ts";
import { BRIDGE_AGENTS, type BridgeAgentName } from "./agent-table.ts";
import { encodeRequest, type SocketRequest, writeSome } from "./socket-protocol.ts";

/*
 * `bridge <agent>` with a running `serve --socket` (SPEC §11, §12): the call is answered by hooks that
 * are already loaded, and this process only carries the payload there and the answer back — no
 * settings, discovery or hook imports here, so a call costs about what a one-file Bun script does.
 * This module is on the path of every start-up: it imports nothing heavier than the paths.
 *
 * The server is looked for at one place, `~/.xcsh/agent/bridge.sock` (a socket in the user's own
 * agent folder; only the user can create it there or connect to it). Whatever prevents forwarding
 * runs the call here instead, with the same semantics, so a server is never needed:
 * - nothing listens there (no file, or a stale one): the call runs locally;
 * - the call uses options the server cannot take over (`--hook`, `--no-discovery`, `--cwd`, help,
 *   anything unusual): locally;
 * - the server refuses the request, fails, or does not confirm it took the request within
 *   {@link ACCEPT_MS} (busy or stuck): locally — it confirms before running anything.
 * Once the server has taken the request, its hooks may be running: any failure from then on (the
 * connection drops, a reply that is not one answer, no answer past the agent's deadline, a signal)
 * is the answer a local bridge gives when its hooks fail — the agent's deny for a guard event, "no
 * opinion" for the others — never a second run of the hooks.
 */

/** How long the server has to confirm it took a request before the call runs locally. */
const ACCEPT_MS = 1000;
/** How much longer than the hooks' deadline the server has to send its answer. */
const ANSWER_GRACE_MS = 5000;

/** What a forwarded call carries besides its payload. */
export interface Forwarding {
	agent: BridgeAgentName;
	event?: string | undefined;
	timeoutSeconds?: number | undefined;
	allowLoadErrors: boolean;
}

/**
 * The forwarding of a `bridge` command line, or `undefined` when it must run locally: a known agent
 * followed only by `--event NAME`, `--timeout SECONDS` (positive) and `--allow-load-errors`, each at most once.
 */
export function forwarding(argv: readonly string[]): Forwarding | undefined {
	const agent = argv[1];
	if (argv[0] !== "bridge" || agent === undefined || !Object.hasOwn(BRIDGE_AGENTS, agent)) return undefined;
	const result: Forwarding = { agent: agent as BridgeAgentName, allowLoadErrors: false };
	const seen = new Set<string>();
	for (let i = 2; i < argv.length; i++) {
		const arg = argv[i] as string;
		const eq = arg.indexOf("=");
		const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
		if (seen.has(flag)) return undefined;
		seen.add(flag);
		if (flag === "--allow-load-errors" && eq < 0) {
			result.allowLoadErrors = true;
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

/** The agent's project-directory variable (`CLAUDE_PROJECT_DIR`…), which the server's own environment lacks. */
function projectVariables(agent: BridgeAgentName): Record<string, string> {
	const name = BRIDGE_AGENTS[agent].projectVariable;
	const value = name === undefined ? undefined : process.env[name];
	return name !== undefined && value ? { [name]: value } : {};
}

/** The request line of `call`. */
export function requestLine(call: Forwarding, pwd: string, env: Record<string, string>, length: number): SocketRequest {
	return {
		agent: call.agent,
		pwd,
		env,
		...(call.event === undefined ? {} : { event: call.event }),
		...(call.timeoutSeconds === undefined ? {} : { timeout: call.timeoutSeconds }),
		...(call.allowLoadErrors ? { allowLoadErrors: true } : {}),
		length,
	};
}

const isAnswer = (value: unknown): value is { stdout: string; stderr: string[] } =>
	typeof value === "object" &&
	value !== null &&
	typeof (value as { stdout?: unknown }).stdout === "string" &&
	Array.isArray((value as { stderr?: unknown }).stderr) &&
	(value as { stderr: unknown[] }).stderr.every((line) => typeof line === "string");

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
					if (left <= 0) throw new Error(`no reply within ${Math.round(ms / 1000)} s`);
					let timer: ReturnType<typeof setTimeout> | undefined;
					await new Promise<void>((done) => {
						wake = done;
						// Capped at what a timer can hold (a huge --timeout would overflow and fire at once).
						timer = setTimeout(done, Math.min(left, MAX_TIMER_MS));
					});
					clearTimeout(timer);
				}
				const line = lines.shift();
				if (line === undefined) throw ended ?? new Error("the connection closed");
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
						ended = new Error("the reply is not UTF-8");
					}
					for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
						lines.push(buffered.slice(0, end));
						buffered = buffered.slice(end + 1);
					}
					notify();
				},
				close() {
					ended ??= new Error("the connection closed before the answer");
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
	if (!call) return undefined;
	const socket = socketPath ?? bridgeSocketPath();
	let stdin: Uint8Array | undefined;
	let exchange: Exchange | undefined;
	const connecting = connect(socket); // while stdin is read
	try {
		stdin = await readStdinAhead();
		exchange = await connecting;
	} catch {
		void connecting.then((opened) => opened?.close());
		return undefined; // stdin unreadable here: the local run reads it and says what is wrong
	}
	if (!exchange) return undefined;
	if (stdin === undefined || stdin.length > MAX_PAYLOAD_BYTES) {
		exchange.close();
		return undefined; // the local command says what is wrong
	}
	exchange.send(encodeRequest(requestLine(call, process.cwd(), projectVariables(call.agent), stdin.length), stdin));
	try {
		const first = await exchange.next(ACCEPT_MS);
		if ((first as { accepted?: unknown } | null)?.accepted !== true) throw new Error("not accepted");
	} catch {
		// Before the acknowledgement the server ran nothing (refused, busy, stuck, not ours): run here.
		exchange.close();
		return undefined;
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
	for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => onSignal(signal));
	const seconds = call.timeoutSeconds ?? BRIDGE_AGENTS[call.agent].timeoutSeconds;
	let answer: { stdout: string; stderr: string[] } | Error;
	try {
		const reply = await exchange.next(seconds * 1000 + ANSWER_GRACE_MS);
		answer = isAnswer(reply) ? reply : new Error("its reply is not an answer");
	} catch (error) {
		answer = error instanceof Error ? error : new Error(String(error));
	}
	exchange.close();
	if (settled) return new Promise<number>(() => {}); // a signal came first: its handler answers and exits
	settled = true;
	if (answer instanceof Error) return answerUnreached(call, stdin, `the hook server at ${socket} failed: ${answer.message}`);
	mark("answered");
	await writeAnswer(answer);
	return 0;
}

/** What `bridge` prints of an answer: its stderr lines, then the one answer line on stdout (nothing for "no opinion"). */
export async function writeAnswer(answer: { stdout: string; stderr: string[] }): Promise<void> {
	if (answer.stderr.length > 0) await writeOrDrop(2, () => Bun.write(Bun.stderr, `${answer.stderr.join("\n")}\n`));
	if (answer.stdout) await writeOrDrop(1, () => Bun.write(Bun.stdout, answer.stdout.endsWith("\n") ? answer.stdout : `${answer.stdout}\n`));
}

/** The answer of a call whose hooks ran on a server that failed before answering (see the module note). */
async function answerUnreached(call: Forwarding, stdin: Uint8Array, why: string): Promise<number> {
	const { answerFailedCall } = await import("./failed-call.ts");
	return answerFailedCall(call, stdin, why);
}
