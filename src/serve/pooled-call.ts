import type { AgentBridge } from "../agent-call/index.ts";
import { recordDecision } from "../decisions/write.ts";
import { type BridgeAnswer, type BridgeOptions, runBridge } from "../agent-call/run.ts";
import type { HostPool } from "./http-hosts.ts";

/** One bridge call a server answers: what `bridge <agent>` would be given, minus the process. */
export type PooledCall = Pick<
	BridgeOptions,
	"event" | "eventIsFallback" | "cwd" | "hookPaths" | "discovery" | "allowLoadErrors" | "timeoutSeconds" | "workingDir"
> & {
	agent: AgentBridge;
	/** The payload as the agent sent it. */
	body: Uint8Array;
	/** The agent's variables as the calling process had them (none for an HTTP hook). */
	env: Record<string, string | undefined>;
};

/**
 * Answers one call with the pool's already-loaded hooks — by `runBridge`, the code `bridge <agent>`
 * runs — and puts its guard decision on record as the command does (docs/contract.md#bridges), unless `record` is
 * false (the caller records it once it knows the answer reached the agent).
 */
export async function answerPooled(pool: HostPool, call: PooledCall, record = true): Promise<BridgeAnswer> {
	const result = await pool.run(() =>
		runBridge(call.agent, {
			stdin: call.body,
			event: call.event,
			eventIsFallback: call.eventIsFallback,
			cwd: call.cwd,
			hookPaths: call.hookPaths,
			discovery: call.discovery,
			allowLoadErrors: call.allowLoadErrors,
			timeoutSeconds: call.timeoutSeconds,
			env: call.env,
			workingDir: call.workingDir,
			host: pool.source,
		}),
	);
	// An HTTP hook carries no variables: the server's own name the collector, if any.
	if (record) recordDecision(result, { ...process.env, ...call.env });
	return result;
}
