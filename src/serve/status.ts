import { socketProblem } from "../socket/forward.ts";
import { type ServerStatus, STATUS_LINE } from "../socket/protocol.ts";

/** How long `serve --status` waits for the server's answer. */
const STATUS_MS = 2000;

/**
 * The status of the hook server on `path` (`{"status":true}`, see protocol.ts), or `undefined`
 * when none answers in time — or the socket is not one the bridge would trust (then nothing is sent).
 */
export async function askStatus(path: string): Promise<ServerStatus | undefined> {
	if ((await socketProblem(path)) !== null) return undefined;
	return new Promise((resolve) => {
		let text = "";
		let settled = false;
		const finish = (value: ServerStatus | undefined) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(value);
		};
		const timer = setTimeout(() => finish(undefined), STATUS_MS);
		Bun.connect({
			unix: path,
			socket: {
				open(socket) {
					socket.write(STATUS_LINE);
				},
				data(socket, chunk) {
					text += new TextDecoder().decode(chunk);
					const end = text.indexOf("\n");
					if (end < 0) return;
					let status: ServerStatus | undefined;
					try {
						const reply = JSON.parse(text.slice(0, end)) as { status?: ServerStatus };
						status = typeof reply.status?.pid === "number" ? reply.status : undefined;
					} catch {
						status = undefined;
					}
					finish(status); // before end(): it runs `close` at once
					socket.end();
				},
				close: () => finish(undefined),
				error: () => finish(undefined),
				connectError: () => finish(undefined),
			},
		}).catch(() => finish(undefined));
	});
}
