/*
 * The cheap half of decision export, safe on every start-up path (no `node:fs`): the variables that
 * name a collector, and the queue. The SDK (src/decisions/otlp-export.ts) is imported only once a
 * record is queued; where a record goes is decided by otlpTarget (src/decisions/otlp.ts).
 */

import type { DecisionEntry } from "./decision-log.ts";

// The target's shape is declared with the exporter that reads it; naming the type loads nothing.
import type { OtlpTarget } from "./otlp-export.ts";

export type { OtlpTarget };

/** The variables otlpTarget (src/decisions/otlp.ts) reads: a forwarded bridge call passes them to the server. */
export const OTLP_VARIABLES = [
	"OTEL_SDK_DISABLED",
	"OTEL_LOGS_EXPORTER",
	"OTEL_EXPORTER_OTLP_PROTOCOL",
	"OTEL_EXPORTER_OTLP_LOGS_PROTOCOL",
	"OTEL_EXPORTER_OTLP_ENDPOINT",
	"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
	"OTEL_EXPORTER_OTLP_HEADERS",
	"OTEL_EXPORTER_OTLP_LOGS_HEADERS",
] as const;

type Exporter = typeof import("./otlp-export.ts");
let exporter: Promise<Exporter | undefined> | undefined;

/**
 * Queues one decision for export to `target`. Never throws and never waits: the record is batched and
 * sent in the background; a collector that is down or slow loses records, never a call.
 */
export function exportDecision(target: OtlpTarget, entry: DecisionEntry): void {
	exporter ??= import("./otlp-export.ts").catch(() => undefined);
	void exporter.then((module) => module?.emitDecision(target, entry)).catch(() => undefined);
}

/**
 * Sends what is queued, waiting at most `timeoutMs`: a short-lived command (`bridge`, `emit`) calls it
 * once its answer is out, just before it exits; free when nothing was exported.
 */
export async function flushDecisionExports(timeoutMs = 1000): Promise<void> {
	if (exporter === undefined) return;
	const module = await exporter;
	if (!module) return;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<void>((resolve) => {
		timer = setTimeout(resolve, timeoutMs);
	});
	await Promise.race([module.flushAll().catch(() => undefined), deadline]);
	clearTimeout(timer);
}
