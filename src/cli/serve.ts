import { exitProcess } from "../process/exit-guard.ts";
import type { ParsedArgs } from "./_args.ts";
import { createServer, type Server } from "../serve/server.ts";
import { onEndingSignal } from "../process/signals.ts";
import { claimStdout } from "../process/stdout.ts";
import { decodeUtf8 } from "../json.ts";
import { bridgeSocketPath } from "../paths.ts";
import { cliError, EXIT_OK, EXIT_USAGE, hookArgs, hookPaths, projectDir, writeAll, writeErr, defineCommand } from "./_shared.ts";

// The protocol in short; src/serve/index.ts documents it in full.
const DESCRIPTION = `Run the hooks as a long-lived process speaking newline-delimited JSON on stdin/stdout.

  request   {"id": 1, "method": "toolCall",
             "params": {"toolName": "bash", "input": {"command": "ls"}}}
  response  {"id": 1, "result": {"block": false}}
            or {"id": 1, "error": {"code": "invalid_params", "message": "..."}}

  methods   emit {<hook event>} → {result, errors, loadErrors}
            toolCall {toolName, toolCallId?, input} → {block, reason?, input?}
              (fails closed; input: the rewritten input)
            context {messages} → {messages, errors}
            beforeAgentStart {prompt, images?} → {message?, errors}
            command {name, args?} → {ok: true, errors}
            reload → {hooks, loadErrors}
  errors    parse_error, invalid_request, invalid_params, method_not_found,
            command_not_found, handler_error, reload_failed, shutting_down,
            internal_error
  notices   {"method": "ready", ...} at start; after a file change
            {"method": "reloaded", "params": {hooks, loadErrors}}

Requests run concurrently; match responses by id. Hook files, discovery folders and settings are
watched and reloaded (debounced); running requests finish on the hooks they started with. On stdin
EOF or a signal (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1…): in-flight requests are answered,
session_shutdown is emitted once, exit 0; requests still running after --shutdown-grace (a hook
that never settles) make it exit 1.
Whatever hooks write to stdout goes to stderr: stdout holds only response lines.

With --http HOST:PORT it answers Claude Code's type "http" hooks instead: POST / (or /claude, or
/<agent>) with the hook's JSON payload is answered 200 with the body \`bridge claude\` would print.
Every request needs "Authorization: Bearer <token>", the token in ~/.xcsh/agent/http-token (created,
mode 0600, when missing); without it: 401 and nothing runs. Loopback addresses only, unless
--allow-remote. Prints {"method":"ready","params":{"url":…}} on stdout once listening; a signal
stops it. Write the entries with: xcsh-hooks install claude --http http://HOST:PORT/

With --socket it answers the \`bridge <agent>\` calls of every agent from hooks already loaded: a
bridge call finds the server at ~/.xcsh/agent/bridge.sock (mode 0600, in your own agent folder) and
only carries the payload there and the answer back, so the entries install wrote get fast with no
change. Without a running server, or when it is busy, each call runs on its own as before. Hooks
reload when their files, the settings or the trust store change; they run in the server's process
(its environment, module state kept between calls). Takes no --hook, --no-discovery, --cwd,
--no-watch, --allow-load-errors or --session: its answers are those of a bridge call run alone.`;

/**
 * Feeds stdin to the server line by line until EOF or `stopped()`. Lines are split on the byte and
 * decoded strictly: a line that is not valid UTF-8 is answered with a `parse_error`, not read lossily.
 */
async function readLines(server: Server, stopped: () => boolean): Promise<void> {
	const reader = Bun.stdin.stream().getReader();
	let buffer = new Uint8Array(0);
	const feed = (bytes: Uint8Array) => {
		const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
		let line: string;
		try {
			line = decodeUtf8(bytes.subarray(0, end), "line");
		} catch (error) {
			server.rejectLine((error as Error).message);
			return;
		}
		void server.handleLine(line);
	};
	while (!stopped()) {
		const { done, value } = await reader.read();
		if (done || stopped()) break;
		const joined = new Uint8Array(buffer.length + value.length);
		joined.set(buffer);
		joined.set(value, buffer.length);
		let start = 0;
		for (let end = joined.indexOf(10); end >= 0; end = joined.indexOf(10, start)) {
			feed(joined.subarray(start, end));
			start = end + 1;
		}
		buffer = joined.slice(start);
	}
	if (!stopped() && buffer.length > 0) feed(buffer); // a last line without its newline
}

/** `xcsh-hooks serve`: wires stdin lines, stdout and signals to {@link createServer}. */
export const serveCommand = defineCommand({
	meta: { name: "serve", description: "Run the hooks as a long-lived process (stdio, socket, HTTP)", details: DESCRIPTION },
	args: {
		...hookArgs,
		session: { type: "string", description: "Session JSONL file for sendMessage/appendEntry", valueHint: "file" },
		watch: {
			type: "boolean",
			default: true,
			description: "Reload hooks when their files, the discovery folders or settings change",
			negativeDescription: "Load hooks once; reload only on a reload request",
		},
		"allow-load-errors": { type: "boolean", description: "Let toolCall run even when a hook failed to load" },
		http: {
			type: "string",
			description: 'Answer Claude Code\'s type "http" hooks on this address instead of stdin/stdout',
			valueHint: "host:port",
		},
		"allow-remote": { type: "boolean", description: "With --http: allow a non-loopback address (every request still needs the token)" },
		socket: {
			type: "boolean",
			description: "Answer every agent's `bridge` calls from loaded hooks, on ~/.xcsh/agent/bridge.sock (with or without --http)",
		},
		"idle-exit": {
			type: "string",
			description: "With --socket: exit after this many minutes without a call (0: never, the default; a server a bridge call started: 10)",
			valueHint: "minutes",
		},
		status: {
			type: "boolean",
			description: "Say whether a hook server runs on ~/.xcsh/agent/bridge.sock: pid, version, uptime, calls served (--json for JSON)",
		},
		json: { type: "boolean", description: "With --status: print the status as JSON" },
		"shutdown-grace": {
			type: "string",
			description: "At shutdown, wait this long for running requests, in ms (default 5000); then exit 1",
			valueHint: "ms",
		},
	},
	async run({ args }) {
		// The executable is built with a JIT policy tuned for short runs; a server lives long.
		(Bun as unknown as { unsafe?: { setJITPolicy?(policy: number): void } }).unsafe?.setJITPolicy?.(1);
		// Only response lines reach stdout; whatever hooks write there goes to stderr.
		if (args.status) return serverStatus(args.json === true);
		if (args.json) throw cliError("--json goes with --status (a server's own output is its protocol)");
		const out = claimStdout();
		if (args["allow-remote"] && args.http === undefined) throw cliError("--allow-remote needs --http HOST:PORT");
		if (args.http !== undefined || args.socket) return serveNetwork(args as unknown as ParsedArgs, out);
		const grace = args["shutdown-grace"] === undefined ? undefined : Number(args["shutdown-grace"]);
		if (grace !== undefined && !(Number.isFinite(grace) && grace >= 0))
			throw cliError(`--shutdown-grace ${args["shutdown-grace"]}: expected a number of milliseconds ≥ 0`);
		const server = await createServer({
			host: { cwd: projectDir(args.cwd), hookPaths: hookPaths(args), discovery: args.discovery, sessionFile: args.session },
			// One synchronous write per line, so lines never interleave.
			write: (line) => writeAll(out, line),
			shutdownGraceMs: grace,
			allowLoadErrors: args["allow-load-errors"] === true,
			watch: args.watch,
		});

		let signalled = false;
		const signal = untilSignal().then(() => {
			signalled = true;
		});
		await Promise.race([readLines(server, () => signalled), signal]);
		const { clean } = await server.shutdown();
		return clean ? EXIT_OK : EXIT_USAGE;
	},
});

/**
 * The signal that ends a long-lived command: resolves on the first of the signals that would end the
 * process (src/process/signals.ts: SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1…, a hook may send one to its
 * own server), so the requests already taken are answered before it exits; a second exits at once.
 */
function untilSignal(): Promise<void> {
	let signalled = false;
	return new Promise<void>((resolve) => {
		onEndingSignal(() => {
			if (signalled) {
				void writeErr("xcsh-hooks serve: second signal, exiting without waiting").then(() => exitProcess(EXIT_USAGE));
				return;
			}
			signalled = true;
			resolve();
		});
	});
}

/**
 * `--socket` keeps the semantics of a `bridge` call run on its own, so it takes none of the options
 * that would make its answers differ: the hooks are the default discovery's, for the project each
 * call names, reloaded when their files change.
 */
function checkSocketArgs(args: ParsedArgs): void {
	const conflicting = [
		args.hook !== undefined && "--hook",
		args.discovery === false && "--no-discovery",
		args.cwd !== undefined && "--cwd",
		args.watch === false && "--no-watch",
		args["allow-load-errors"] === true && "--allow-load-errors",
		args.session !== undefined && "--session",
	].filter(Boolean);
	if (conflicting.length > 0)
		throw cliError(
			`--socket answers bridge calls exactly as they would run on their own, so it takes no ${conflicting.join(", ")} (a bridge command line carries its own --allow-load-errors)`,
		);
}

/** `serve --http HOST:PORT` and/or `serve --socket`: one pool of loaded hooks, requests until a signal. */
async function serveNetwork(args: ParsedArgs, out: number): Promise<number> {
	if (args.socket) checkSocketArgs(args);
	const idle = args["idle-exit"] === undefined ? undefined : Number(args["idle-exit"]);
	if (idle !== undefined && !(args.socket && Number.isFinite(idle) && idle >= 0))
		throw cliError(`--idle-exit ${String(args["idle-exit"])}: expected --socket and a number of minutes ≥ 0`);
	const { createHostPool } = await import("../serve/http-hosts.ts");
	// Loads come and go here: Workers are guarded before the first (see guardWorkersEarly).
	(await import("../hooks/_approved.ts")).guardWorkersEarly();
	const log = (line: string) => void writeErr(`xcsh-hooks serve: ${line}`);
	const pool = createHostPool({
		hookPaths: hookPaths(args as { hook?: unknown }),
		discovery: args.discovery !== false,
		watch: args.watch !== false,
		log,
	});
	const ready: Record<string, unknown> = {};
	const stops: Array<() => Promise<void>> = [];
	let ended: (why: string) => void = () => {};
	const done = new Promise<string>((resolve) => {
		ended = resolve;
	});
	const { releaseStartLock } = await import("../socket/autostart.ts");
	try {
		if (args.http !== undefined) {
			const http = await startHttp(args, pool, log);
			stops.push(http.stop);
			Object.assign(ready, { url: http.url, tokenFile: http.tokenFile });
		}
		if (args.socket) {
			const { startBridgeSocket } = await import("../serve/bridge-socket.ts");
			const path = bridgeSocketPath();
			try {
				const socket = await startBridgeSocket({ path, pool, idleExitMinutes: idle, onDone: ended });
				stops.push(socket.stop);
			} catch (error) {
				throw cliError(`--socket: cannot listen on ${path} (${(error as Error).message})`);
			}
			ready.socket = path;
			ready.pid = process.pid;
			releaseStartLock(); // a bridge call that started this server held it until now
		}
		writeAll(out, `${JSON.stringify({ method: "ready", params: ready })}\n`);
		const why = await Promise.race([untilSignal().then(() => undefined), done]);
		if (why) await writeErr(`xcsh-hooks serve: exiting: ${why}`);
	} finally {
		for (const stop of stops) await stop();
		pool.close();
	}
	return EXIT_OK;
}

/** `serve --status`: asks the server on the bridge socket; exit 0 either way, `{"running":false}` when none answers. */
async function serverStatus(json: boolean): Promise<number> {
	const { askStatus } = await import("../serve/status.ts");
	const path = bridgeSocketPath();
	const status = await askStatus(path);
	if (json) {
		writeAll(1, `${JSON.stringify(status ? { running: true, socket: path, ...status } : { running: false, socket: path })}\n`);
		return EXIT_OK;
	}
	if (!status) writeAll(1, `no hook server is running (${path})\n`);
	else
		writeAll(
			1,
			`hook server running on ${path}\n  pid ${status.pid}, version ${status.version}, up ${status.uptimeSeconds} s (since ${status.startedAt}), ${status.served} calls served, idle exit ${status.idleExitMinutes ? `after ${status.idleExitMinutes} min` : "never"}\n`,
		);
	return EXIT_OK;
}

/** `--http HOST:PORT`: loopback unless `--allow-remote`, the token file, then the listener. */
async function startHttp(args: ParsedArgs, pool: import("../serve/http-hosts.ts").HostPool, log: (line: string) => void) {
	const { ensureHttpToken, httpTokenFile } = await import("../serve/http-token.ts");
	const { isLoopback, parseListenAddress, startHttpServer } = await import("../serve/http.ts");
	let address: { hostname: string; port: number };
	try {
		address = parseListenAddress(String(args.http));
	} catch (error) {
		throw cliError((error as Error).message);
	}
	if (!isLoopback(address.hostname) && !args["allow-remote"])
		throw cliError(
			`--http ${String(args.http)}: refusing to listen on ${address.hostname}, which is not a loopback address (127.0.0.1, ::1, localhost); pass --allow-remote to listen there anyway`,
		);
	let token: string;
	let created: boolean;
	try {
		({ token, created } = ensureHttpToken());
	} catch (error) {
		throw cliError((error as Error).message);
	}
	if (created) await writeErr(`xcsh-hooks serve: created the token file ${httpTokenFile()} (mode 0600)`);
	try {
		const server = startHttpServer({
			...address,
			token,
			pool,
			hookPaths: hookPaths(args as { hook?: unknown }),
			discovery: args.discovery !== false,
			cwd: args.cwd === undefined ? undefined : projectDir(args.cwd as string),
			allowLoadErrors: args["allow-load-errors"] === true,
			log,
		});
		return { url: server.url, tokenFile: httpTokenFile(), stop: () => server.stop() };
	} catch (error) {
		throw cliError(`--http ${String(args.http)}: cannot listen (${(error as Error).message})`);
	}
}
