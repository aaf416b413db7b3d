import { XcshError } from "../errors.ts";
import { loadBridge } from "../agent-call/index.ts";
import { recordDecision } from "../decisions/write.ts";
import { runBridge } from "../agent-call/run.ts";
import { writeAnswer } from "./write-answer.ts";

/**
 * The answer of a forwarded call whose server took the request and then failed (src/socket/forward.ts):
 * what a local bridge answers when its hooks fail — the agent's deny on a guard event, "no opinion" on
 * the others — logged like any guard decision. The hooks are not run again here.
 */
export async function answerFailedCall(
	call: { agent: string; event?: string | undefined },
	stdin: Uint8Array,
	why: string,
): Promise<number> {
	const agent = await loadBridge(call.agent);
	if (!agent) throw new XcshError("UNKNOWN_NAME", `unknown agent ${call.agent}`);
	const answer = await runBridge(agent, {
		stdin,
		event: call.event,
		hookPaths: [],
		discovery: true,
		host: async () => {
			throw new XcshError("HOOK_FAILED", why);
		},
	});
	recordDecision(answer);
	await writeAnswer(answer);
	return 0;
}
