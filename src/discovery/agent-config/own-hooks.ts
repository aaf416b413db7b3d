import { XcshError } from "../../errors.ts";
import { findAgent } from "../../agents/index.ts";
import type { AgentOwnHooks } from "../../agents/_shared/descriptor.ts";

/** How `agent`'s own command hooks are read and run; an agent without them is a programming error. */
export function ownHooksOf(agent: string): AgentOwnHooks {
	const own = findAgent(agent)?.ownHooks;
	if (!own) throw new XcshError("UNKNOWN_NAME", `agent "${agent}" has no command hooks of its own that xcsh-hooks can run`);
	return own;
}
