/**
 * The floor of a served agent call (docs/contract.md#performance-budgets): what the least a Bun client can do costs — read stdin,
 * connect to a Unix socket, send the request, confirm it, print the answer — measured against a server
 * that answers at once (no hooks), and against the real `serve --socket` of the same rounds. The two
 * rows split a served call's cost into the client's part (our `bridge` vs this client, same server)
 * and the server's part (the real server vs the instant one, same client).
 */
import { rmSync } from "node:fs";
import { join } from "pathe";
import { encodeLine, GO_LINE, type SocketRequest } from "../../src/socket/protocol.ts";
import { trivialExecutable } from "./binary.ts";
import { tempDir } from "./fixtures.ts";

/** The client: this protocol's request, its `go` on the server's `ready`, the answer's stdout printed. */
function clientSource(version: string): string {
	return `const stdin = await Bun.stdin.bytes();
const request = JSON.stringify({ agent: "claude", version: ${JSON.stringify(version)}, pwd: process.cwd(), env: {}, length: stdin.length }) + "\\n";
const answer = await new Promise((resolve) => {
	let text = "";
	let confirmed = false;
	Bun.connect({
		unix: process.env.XCSH_BENCH_SOCKET,
		socket: {
			open(s) { s.write(request); s.write(stdin); },
			data(s, chunk) {
				text += new TextDecoder().decode(chunk);
				for (let end = text.indexOf("\\n"); end >= 0; end = text.indexOf("\\n")) {
					const line = JSON.parse(text.slice(0, end));
					text = text.slice(end + 1);
					if (!confirmed && line.ready === true) { confirmed = true; s.write(${JSON.stringify(GO_LINE)}); continue; }
					resolve(line);
					s.end();
					return;
				}
			},
			close() { resolve(undefined); },
		},
	});
});
if (typeof answer?.stdout !== "string") { console.error("no answer"); process.exit(1); }
if (answer.stdout) console.log(answer.stdout);
`;
}

/** A server of the bridge protocol that runs nothing: `ready` once the request is in, then an allow on `go`. */
function instantServer(path: string): { stop(): void } {
	const allow = encodeLine({ stdout: "", stderr: [], verdict: "allow" });
	const ready = encodeLine({ ready: true });
	// Bytes, not text: the request's `length` counts the payload's bytes.
	const listener = Bun.listen<{ bytes: Buffer; readied: boolean }>({
		unix: path,
		socket: {
			open(socket) {
				socket.data = { bytes: Buffer.alloc(0), readied: false };
			},
			data(socket, chunk) {
				const c = socket.data;
				c.bytes = Buffer.concat([c.bytes, chunk]);
				if (!c.readied) {
					const end = c.bytes.indexOf(10);
					if (end < 0) return;
					const request = JSON.parse(c.bytes.subarray(0, end).toString("utf8")) as SocketRequest;
					if (c.bytes.length - end - 1 < request.length) return;
					c.readied = true;
					c.bytes = c.bytes.subarray(end + 1 + request.length);
					socket.write(ready);
				}
				if (c.bytes.includes(GO_LINE)) socket.end(allow);
			},
		},
	});
	return {
		stop() {
			listener.stop(true);
			rmSync(path, { force: true });
		},
	};
}

/** The floor client, compiled like the trivial executable, and an instant server to answer it. */
export async function socketFloor(version: string): Promise<{ client: string; socket: string; stop(): void }> {
	const client = await trivialExecutable(clientSource(version));
	const socket = join(tempDir("socket-floor"), "floor.sock");
	const server = instantServer(socket);
	return { client, socket, stop: () => server.stop() };
}
