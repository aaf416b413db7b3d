import { XcshError } from "../../errors.ts";
import type { AgentEventSpec } from "./bridge-types.ts";
import { eventRule } from "../../hooks/event-rules.ts";
import type { AgentHookTarget } from "./entry.ts";
import type { AgentEvent } from "./install-spec.ts";

/*
 * An agent's event table (its bridge's `events`: names, payload fields, and the event of ours each
 * becomes) is written once, in its bridge module; the other directions read it from there.
 */

/**
 * The events whose command hooks, read from the agent's own config, run on an event of ours: the same
 * counterpart as the bridge's, where the event table says command hooks can run on it (`commandHooks`).
 * Subagent start and stop are not such events: no other host has those events; nor is `context`
 * (pi's alone, and pi has no command hooks of its own), nor `permission_request` (no host of ours
 * shows an approval prompt of its own for such a hook to answer).
 */
export function hookTargets(events: Record<string, AgentEventSpec>, omit: readonly string[] = []): Record<string, AgentHookTarget> {
	const targets: Record<string, AgentHookTarget> = {};
	for (const [name, spec] of Object.entries(events))
		if (spec.to !== null && eventRule(spec.to)?.commandHooks && !omit.includes(name)) targets[name] = spec.to as AgentHookTarget;
	return targets;
}

/** `install`'s entries: each named event with the event of ours it maps to, from the table (an unmapped name is a programming error). */
export function installEvents(events: Record<string, AgentEventSpec>, list: ReadonlyArray<Omit<AgentEvent, "xcsh">>): AgentEvent[] {
	return list.map((event) => {
		const to = events[event.name]?.to;
		if (!to) throw new XcshError("INTERNAL", `install: ${event.name} has no counterpart in the agent's event table`);
		return { ...event, xcsh: to };
	});
}
