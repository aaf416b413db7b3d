import { logDecision } from "../host/decisions.ts";
import type { Forwarding } from "./forward.ts";
import { loadBridge } from "./index.ts";
import { runBridge } from "./run.ts";

/**
 * The answer of a forwarded call whose server took the request and then failed (src/bridges/forward.ts):
 * what a local bridge answers when its hooks fail — the agent's deny on a guard event, "no opinion" on
 * the others — logged like any guard decision. The hooks are not run again here.
 */
export async function answerFailedCall(call: Forwarding, stdin: Uint8Array, why: string): Promise<number> {
	const agent = await loadBridge(call.agent);
	if (!agent) throw new Error(`unknown agent ${call.agent}`);
	const answer = await runBridge(agent, {
		stdin,
		event: call.event,
		hookPaths: [],
		discovery: true,
		host: async () => {
			throw new Error(why);
		},
	});
	if (answer.decision)
		logDecision({ settings: answer.settings ?? {} }, { ...answer.decision, durationMs: Math.round(answer.decision.durationMs) });
	if (answer.stderr.length > 0) await Bun.write(Bun.stderr, `${answer.stderr.join("\n")}\n`);
	if (answer.stdout) await Bun.write(Bun.stdout, answer.stdout.endsWith("\n") ? answer.stdout : `${answer.stdout}\n`);
	return 0;
}
