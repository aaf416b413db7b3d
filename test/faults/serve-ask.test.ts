/**
 * `serve`'s `toolCall` answers an ask as the block it also is (`{block: true, ask: true, reason}`): a
 * caller that reads only `block` never runs a call a hook wanted a person to confirm.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { serveCli, useClis, withServer } from "./_cli.ts";
import { privateHome, tempDir, toolCallRequest, writeFiles } from "./_fixtures.ts";

const CLIS = useClis();
const TIMEOUT_MS = 60_000;

const ASKER = `export default function (pi) {
	pi.on("tool_call", (event) => {
		if (String(event.input.command ?? "").includes("ask-me")) return { ask: true, reason: "ASK-REASON: confirm this" };
		if (String(event.input.command ?? "").includes("rewrite-me")) return { ask: true, input: { command: "echo rewritten" } };
	});
}
`;

for (const cli of CLIS) {
	describe(`${cli.name}: serve toolCall`, () => {
		test(
			"an ask is a block marked ask, with the hook's reason (and the rewritten input it is about)",
			async () => {
				const dir = tempDir("xcsh-faults-serve-ask-");
				writeFiles(dir, { "asker.ts": ASKER });
				const server = serveCli(cli, ["--no-watch", "--no-discovery", "--hook", join(dir, "asker.ts")], { cwd: dir, home: privateHome() });
				await withServer(server, async () => {
					server.send(toolCallRequest(1, "ask-me"), toolCallRequest(2, "rewrite-me"), toolCallRequest(3, "ls"));
					expect((await server.response(1, 20_000)).result).toEqual({ block: true, ask: true, reason: "ASK-REASON: confirm this" });
					expect((await server.response(2, 20_000)).result).toEqual({
						block: true,
						ask: true,
						reason: "a hook asks for confirmation",
						input: { command: "echo rewritten" },
					});
					expect((await server.response(3, 20_000)).result).toEqual({ block: false });
				});
			},
			TIMEOUT_MS,
		);
	});
}
