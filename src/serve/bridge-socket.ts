import { XcshError } from "../errors.ts";
import { chmodSync, lstatSync, mkdirSync, statSync, unlinkSync } from "node:fs";
import { dirname } from "pathe";
import { type AgentBridge, bridgeNames, loadBridge } from "../agent-call/index.ts";
import { recordDecision } from "../decisions/write.ts";
import {
	answering,
	encodeLine,
	GO_LINE,
	MAX_REQUEST_LINE,
	newerVersion,
	STATUS_LINE,
	type ServerStatus,
	type RequestCall as Call,
	requestCall as callOf,
	writeSome,
} from "../socket/protocol.ts";
import { PACKAGE_VERSION } from "../package-version.ts";
import { decodeUtf8 } from "../json.ts";
import { withTimeout } from "../timeouts.ts";
import { serverTurnedOff } from "../socket/autostart.ts";
import { answerPooled } from "./pooled-call.ts";
import { processSnapshot } from "./clean-process.ts";
import type { HostPool } from "./http-hosts.ts";

/*
 * `serve --socket`: the server `bridge <agent>` calls forward to (src/socket/forward.ts), on a Unix
 * socket at `~/.xcsh/agent/bridge.sock`; the protocol is in src/socket/protocol.ts. Access is
 * the file system's: the socket is created mode 0600 in the user's agent folder, which must belong to
 * the user and be writable by nobody else (whoever can write there could replace the hooks as well).
 * No token: nothing else can reach it. A request it cannot take is refused before anything runs, and
 * a request it can take runs only once the client confirmed it (`go`): a client that gave up waiting
 * (a busy server) runs the call itself and has nothing run here.
 */

/** Options of {@link startBridgeSocket}. */
export interface BridgeSocketOptions {
	/** The socket's path (`~/.xcsh/agent/bridge.sock`). */
	path: string;
	/** The hosts to answer with: the default discovery, no `--hook`, no fixed `--cwd`, watched. */
	pool: HostPool;
	/** Minutes without a connection after which {@link BridgeSocketOptions.onDone} is called; 0 or absent: never. */
	idleExitMinutes?: number | undefined;
	/**
	 * Called once when the server should end: it was idle for `idleExitMinutes`, or a client of a newer
	 * version came (the socket is already given up then, so that client can start its own server).
	 */
	onDone?: (why: string) => void;
	/** This server's version (default: the package's); only tests set another. */
	version?: string;
}

/** A listening socket server. */
export interface BridgeSocket {
	path: string;
	/** Stops listening, waits (up to 5 s) for the calls still running, and removes the socket file. */
	stop(): Promise<void>;
	/** What `{"status":true}` answers. */
	status(): ServerStatus;
}

/** A connection that sends nothing (or reads nothing) for this long is closed. */
const IDLE_SECONDS = 120;
/** How long a stop waits for the calls still running. */
const STOP_GRACE_MS = 5000;
/** The `ready` reply, encoded once (only ever read: a partial write keeps a view of it, a join copies it). */
const READY_LINE = encodeLine({ ready: true });

/** The folder must be the user's own and writable by nobody else; throws naming what to fix. */
function checkFolder(dir: string): void {
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const info = statSync(dir);
	if (!info.isDirectory()) throw new XcshError("INVALID_OPTION", `${dir} is not a folder`);
	if (process.platform === "win32") return;
	if (typeof process.getuid === "function" && info.uid !== process.getuid())
		throw new XcshError(
			"UNSAFE_PERMISSIONS",
			`${dir} belongs to another user (uid ${info.uid}); the bridge socket must be in a folder of your own`,
		);
	if ((info.mode & 0o022) !== 0)
		throw new XcshError(
			"UNSAFE_PERMISSIONS",
			`${dir} may be written by other users (mode ${(info.mode & 0o777).toString(8)}); run: chmod go-w ${dir}`,
		);
}

/**
 * Makes `path` free to listen on: a stale socket (nothing answers) is removed; a live one means another
 * server is running, and anything that is not a socket is the user's own file — both are refused.
 */
async function claimPath(path: string): Promise<void> {
	let info: ReturnType<typeof lstatSync>;
	try {
		info = lstatSync(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
		throw error;
	}
	if (!info.isSocket()) throw new XcshError("COMMAND_FAILED", `${path} exists and is not a socket; move it away first`);
	if (await answering(path)) throw new XcshError("COMMAND_FAILED", `another serve --socket is already running on ${path}`);
	unlinkSync(path);
}

/** Listens on `options.path`; throws (naming the path) when it cannot. */
export async function startBridgeSocket(options: BridgeSocketOptions): Promise<BridgeSocket> {
	const { path, pool } = options;
	const version = options.version ?? PACKAGE_VERSION;
	const idleMs = Math.max(0, options.idleExitMinutes ?? 0) * 60_000;
	checkFolder(dirname(path));
	await claimPath(path);
	const startedAt = Date.now();
	let served = 0;
	let connections = 0;
	let lastActivity = Date.now();
	let done = false;
	const finish = (why: string) => {
		if (done) return;
		done = true;
		clearInterval(idleTimer);
		options.onDone?.(why);
	};
	// Checked a few times per idle period; a connection open (a call running) is never idle.
	const idleTimer =
		idleMs > 0
			? setInterval(
					() => {
						if (connections === 0 && Date.now() - lastActivity >= idleMs) finish(`idle for ${options.idleExitMinutes} min`);
					},
					Math.min(Math.max(idleMs / 4, 50), 60_000),
				)
			: undefined;
	idleTimer?.unref?.();
	const status = (): ServerStatus => ({
		pid: process.pid,
		version,
		startedAt: new Date(startedAt).toISOString(),
		uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
		served,
		idleExitMinutes: options.idleExitMinutes ?? 0,
	});

	/** One connection: the request line, then its payload, then the replies; see the protocol. */
	interface Connection {
		/** Bytes not yet consumed: the request line being read, then the payload. */
		received: Uint8Array[];
		size: number;
		/** The request, once its line is in. */
		call?: Call;
		pending: Uint8Array;
		closed: boolean;
		/** The whole request is in: what follows is the client's confirmation. */
		complete: boolean;
		/** The agent and payload of a request offered to the client (`ready` sent), until it confirms. */
		offered?: { agent: AgentBridge; payload: Uint8Array } | undefined;
		/** The client confirmed: the call is this server's (at most one run). */
		started: boolean;
		/** Close once what is pending is written. */
		ending: boolean;
	}
	type Socket = import("bun").Socket<Connection>;
	const send = (socket: Socket, bytes: Uint8Array, end = false) => {
		const c = socket.data;
		if (c.closed) return;
		c.pending = c.pending.length > 0 ? Buffer.concat([c.pending, bytes]) : writeSome(socket, bytes);
		c.ending ||= end;
		if (c.ending && c.pending.length === 0) socket.end();
	};
	const refuse = (socket: Socket, reason: string) => send(socket, encodeLine({ refused: reason }), true);

	const running = new Set<Promise<void>>();
	const agents = new Map<string, AgentBridge>();
	let stopping = false;
	// What each call must leave as it found (src/serve/clean-process.ts), taken before the first one.
	const stained = processSnapshot();
	/** After a call, or before one: a process a hook changed serves no more calls (they run on their own). */
	const leaveIfStained = (): string | undefined => {
		const why = stained();
		if (why === undefined) return undefined;
		giveUp();
		finish(`${why}; the next call runs in a fresh process`);
		return why;
	};
	/** The request is in: `ready` once its agent is known; nothing runs before the client's `go`. */
	const offer = async (socket: Socket, call: Call, payload: Uint8Array) => {
		// Turned off since it started (`"server": false`): the call runs on its own, and so do the ones
		// after it — the socket is given up first, so they find no server and start none.
		if (serverTurnedOff()) {
			giveUp();
			refuse(socket, "the hook server is turned off in your settings");
			finish('turned off ("server": false)');
			return;
		}
		// Something a hook left behind since the last call (a timer it set): nothing of this call runs here.
		const stain = leaveIfStained();
		if (stain !== undefined) return refuse(socket, `this server's process was changed by a hook (${stain}); run the call on its own`);
		// Known agents are kept: a call in the server's cache is offered in the same tick it arrived.
		const agent = agents.get(call.request.agent) ?? (await loadBridge(call.request.agent));
		if (agent) agents.set(call.request.agent, agent);
		if (!agent) return refuse(socket, `no agent ${call.request.agent}; expected one of: ${bridgeNames().join(", ")}`);
		socket.data.offered = { agent, payload };
		send(socket, READY_LINE);
	};
	const run = async (socket: Socket, call: Call, agent: AgentBridge, payload: Uint8Array) => {
		try {
			const result = await answerPooled(
				pool,
				{
					agent,
					body: payload,
					event: call.request.event,
					hookPaths: [],
					discovery: true,
					allowLoadErrors: call.request.allowLoadErrors === true,
					timeoutSeconds: call.request.timeout,
					env: call.env,
					workingDir: call.request.pwd,
				},
				false,
			);
			// A client that left (its deadline passed) answered the call itself and put that answer on
			// record: this one reaches nobody, and a second line for the call would misstate what the agent got.
			served++;
			const reached = !socket.data.closed;
			if (reached) {
				const verdict = result.decision?.decision ?? "none";
				send(socket, encodeLine({ stdout: result.stdout, stderr: result.stderr, verdict }), true);
			}
			// A call whose hooks changed the process is its last here: the socket is given up in the tick its
			// answer went out, before this server takes another connection (the answer does not depend on it;
			// checked after the write, its ≈40 µs are not the client's wait). The next call's own check, before
			// its `ready`, would refuse it anyway.
			leaveIfStained();
			if (!reached) return;
			// On record right after the answer went out (≈0.1 ms the client no longer waits for), in the same tick.
			recordDecision(result, { ...process.env, ...call.env });
		} catch {
			// runBridge answers every hook failure itself; this is the server failing. Closing without
			// an answer makes the client answer a failed call (a guard: deny).
			socket.end();
		}
	};
	/** Bytes after the request: the client's one confirmation line; anything else ends the connection, nothing run. */
	const confirmation = (socket: Socket, chunk: Uint8Array) => {
		const c = socket.data;
		if (c.started) return; // one run per connection: nothing more is read
		const offered = c.offered;
		c.received.push(new Uint8Array(chunk));
		c.size += chunk.length;
		const bytes = Buffer.concat(c.received, c.size);
		c.received = [bytes];
		const end = bytes.indexOf(10);
		if (!offered || stopping || bytes.length > GO_LINE.length || (end >= 0 && bytes.toString("latin1") !== GO_LINE)) {
			socket.end(); // early, late or not a `go`: the client runs the call itself, or has it failed closed
			return;
		}
		if (end < 0) return;
		c.started = true;
		c.offered = undefined;
		c.received = [];
		const done = run(socket, c.call as Call, offered.agent, offered.payload).finally(() => running.delete(done));
		running.add(done);
	};

	const received = (socket: Socket, chunk: Uint8Array) => {
		const c = socket.data;
		if (c.ending) return;
		if (c.complete) return confirmation(socket, chunk);
		c.received.push(new Uint8Array(chunk));
		c.size += chunk.length;
		if (c.call === undefined) {
			const bytes = c.received.length === 1 ? (c.received[0] as Uint8Array) : Buffer.concat(c.received, c.size);
			c.received = [bytes];
			const end = bytes.indexOf(10);
			if (end < 0) {
				if (c.size > MAX_REQUEST_LINE) refuse(socket, `the request line is longer than ${MAX_REQUEST_LINE} bytes`);
				return;
			}
			if (end + 1 === STATUS_LINE.length && Buffer.from(bytes.buffer, bytes.byteOffset, end + 1).toString("latin1") === STATUS_LINE)
				return send(socket, encodeLine({ status: status() }), true);
			let call: Call | string;
			try {
				call = callOf(decodeUtf8(bytes.subarray(0, end), "request"));
			} catch (error) {
				call = (error as Error).message;
			}
			if (typeof call === "string") return refuse(socket, call);
			const theirs = call.request.version;
			if (theirs !== version) {
				// Different versions never talk. A newer client replaces this server: the socket is given up
				// before the refusal goes out, so the client's own server can listen there at once.
				const replaced = theirs !== undefined && newerVersion(theirs, version);
				if (replaced) giveUp();
				send(socket, encodeLine({ refused: `the server is version ${version}, this call ${theirs ?? "older"}`, version }), true);
				if (replaced) finish(`replaced by version ${theirs}`);
				return;
			}
			c.call = call;
			c.received = [bytes.subarray(end + 1)];
			c.size -= end + 1;
		}
		// The payload is gathered as it comes and joined once, when it is all in.
		if (c.size < c.call.request.length) return;
		if (c.size > c.call.request.length) return refuse(socket, "more bytes than the request's length");
		c.complete = true; // one request per connection
		const payload = Buffer.concat(c.received, c.size);
		c.received = [];
		c.size = 0;
		offer(socket, c.call, payload).catch(() => socket.end());
	};

	// Created 0600: between listening and a chmod, nobody else may connect.
	const umask = process.umask(0o177);
	let listener: ReturnType<typeof Bun.listen<Connection>>;
	try {
		listener = Bun.listen<Connection>({
			unix: path,
			socket: {
				open(socket) {
					connections++;
					lastActivity = Date.now();
					socket.data = {
						received: [],
						size: 0,
						pending: new Uint8Array(0),
						closed: false,
						complete: false,
						started: false,
						ending: false,
					};
					socket.timeout(IDLE_SECONDS);
				},
				data: received,
				drain(socket) {
					const c = socket.data;
					c.pending = writeSome(socket, c.pending);
					if (c.ending && c.pending.length === 0) socket.end();
				},
				timeout(socket) {
					// A client that stopped sending mid-request or never confirmed: let it go (a running call keeps its connection).
					if (!socket.data.started) socket.end();
				},
				close(socket) {
					if (!socket.data.closed) connections--;
					lastActivity = Date.now();
					socket.data.closed = true;
					socket.data.offered = undefined;
				},
				error() {},
			},
		});
	} finally {
		process.umask(umask);
	}
	chmodSync(path, 0o600);
	const inode = lstatSync(path).ino;
	let listening = true;
	/** Stops taking connections and removes the socket file (only our own: another server may have taken the path since). */
	function giveUp(): void {
		if (!listening) return;
		listening = false;
		listener.stop();
		try {
			if (lstatSync(path).ino === inode) unlinkSync(path);
		} catch {
			// Already gone.
		}
	}
	return {
		path,
		status,
		async stop() {
			stopping = true; // a `go` from now on ends its connection: the pool is about to close
			done = true;
			clearInterval(idleTimer);
			giveUp();
			// Running calls finish (a hook that never settles does not hold the stop for long).
			await withTimeout(Promise.allSettled([...running]), STOP_GRACE_MS, () => undefined);
		},
	};
}
