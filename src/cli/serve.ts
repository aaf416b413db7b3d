import { createServer, type Server } from "../serve/server.ts";
import { EXIT_OK, EXIT_USAGE, globalArgs, hookPaths, projectDir, writeErr, defineCommand } from "./_shared.ts";

// The protocol in short; src/serve/index.ts documents it in full.
const DESCRIPTION = `Run the hooks as a long-lived process speaking newline-delimited JSON on stdin/stdout.

  request   {"id": 1, "method": "toolCall", "params": {"toolName": "bash", "input": {"command": "ls"}}}
  response  {"id": 1, "result": {"block": false}}  or  {"id": 1, "error": {"code": "invalid_params", "message": "..."}}

  methods   emit {<hook event>} → {result, errors, loadErrors}
            toolCall {toolName, toolCallId?, input} → {block, reason?}   (fails closed)
            context {messages} → {messages, errors}
            beforeAgentStart {prompt, images?} → {message?, errors}
            command {name, args?} → {ok: true, errors}
            reload → {hooks, loadErrors}
  errors    parse_error, invalid_request, invalid_params, method_not_found, command_not_found,
            handler_error, reload_failed, shutting_down, internal_error
  notices   {"method": "ready", ...} at start, {"method": "reloaded", "params": {hooks, loadErrors}} after a file change

Requests run concurrently; match responses by id. Hook files, discovery folders and settings are
watched and reloaded (debounced); running requests finish on the hooks they started with. On stdin
EOF, SIGTERM or SIGINT: in-flight requests are answered, session_shutdown is emitted once, exit 0.`;

/** Feeds stdin to the server line by line until EOF or `stopped()`. */
async function readLines(server: Server, stopped: () => boolean): Promise<void> {
	const reader = Bun.stdin.stream().getReader();
	const decoder = new TextDecoder();
	let buffer = "";
	const feed = (line: string) => void server.handleLine(line.endsWith("\r") ? line.slice(0, -1) : line);
	while (!stopped()) {
		const { done, value } = await reader.read();
		if (done || stopped()) break;
		buffer += decoder.decode(value, { stream: true });
		let start = 0;
		for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n", start)) {
			feed(buffer.slice(start, end));
			start = end + 1;
		}
		buffer = buffer.slice(start);
	}
	buffer += decoder.decode();
	if (!stopped() && buffer) feed(buffer); // a last line without its newline
}

/** `xcsh-hooks serve`: wires stdin lines, stdout and signals to {@link createServer}. */
export const serveCommand = defineCommand({
	meta: { name: "serve", description: DESCRIPTION },
	args: {
		...globalArgs,
		session: { type: "string", description: "Session JSONL file for sendMessage/appendEntry", valueHint: "file" },
		watch: {
			type: "boolean",
			default: true,
			description: "Reload hooks when their files, the discovery folders or settings change",
			negativeDescription: "Load hooks once; reload only on a reload request",
		},
		"allow-load-errors": { type: "boolean", description: "Let toolCall run even when a hook failed to load" },
	},
	async run({ args }) {
		// The executable is built with a JIT policy tuned for short runs; a server lives long.
		(Bun as unknown as { unsafe?: { setJITPolicy?(policy: number): void } }).unsafe?.setJITPolicy?.(1);
		const sink = Bun.stdout.writer();
		const server = await createServer({
			host: { cwd: projectDir(args.cwd), hookPaths: hookPaths(args), discovery: args.discovery, sessionFile: args.session },
			// One write per line into one ordered sink, so lines never interleave.
			write: (line) => {
				sink.write(line);
				sink.flush();
			},
			allowLoadErrors: args["allow-load-errors"] === true,
			watch: args.watch,
		});

		let signalled = false;
		let wake: () => void = () => {};
		const signal = new Promise<void>((resolve) => {
			wake = resolve;
		});
		const onSignal = () => {
			if (signalled) {
				void writeErr("xcsh-hooks serve: second signal, exiting without waiting").then(() => process.exit(EXIT_USAGE));
				return;
			}
			signalled = true;
			wake();
		};
		process.on("SIGTERM", onSignal);
		process.on("SIGINT", onSignal);

		await Promise.race([readLines(server, () => signalled), signal]);
		await server.shutdown();
		await sink.end();
		return EXIT_OK;
	},
});
