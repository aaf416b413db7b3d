/*
 * The OpenTelemetry SDK side of decision export, imported only when a record is exported
 * (src/decisions/otlp.ts): one LoggerProvider per target, its records batched by the SDK's
 * BatchLogRecordProcessor and sent as OTLP/HTTP JSON by the official exporter's transport.
 *
 * The exporter is assembled from its parts with every setting given here, not through the
 * `OTLPLogExporter` constructor: that one fills whatever it is not given from the process's
 * `OTEL_EXPORTER_OTLP_*` variables (headers merged into ours, compression, timeout, and a CA or client
 * certificate read from a file path relative to the working folder), and those variables are the
 * agent's — a project can set them. Where records go and what they carry is decided by otlpTarget alone.
 */

import { SeverityNumber } from "@opentelemetry/api";
import { OTLPExporterBase } from "@opentelemetry/otlp-exporter-base";
import { createOtlpHttpExportDelegate, httpAgentFactoryFromOptions } from "@opentelemetry/otlp-exporter-base/node-http";
import { JsonLogsSerializer, LogsExporterMetricsHelper } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { version as VERSION } from "../../package.json" with { type: "json" };
import type { DecisionEntry } from "./decision-log.ts";

/** An OTLP/HTTP JSON logs exporter for `target`, configured here alone (no variable is read). */
/** Where decision records go: an OTLP/HTTP (JSON) logs endpoint and its headers. */
export interface OtlpTarget {
	/** The full logs URL (`…/v1/logs`). */
	url: string;
	headers: Record<string, string>;
}

function exporterFor(target: OtlpTarget): OTLPExporterBase<ReadableLogRecord[]> {
	const headers = { ...target.headers, "Content-Type": "application/json" };
	const delegate = createOtlpHttpExportDelegate(
		{
			url: target.url,
			headers: async () => headers,
			timeoutMillis: 5000,
			concurrencyLimit: 30,
			compression: "none",
			agentFactory: httpAgentFactoryFromOptions({ keepAlive: true }),
		},
		JsonLogsSerializer,
		"otlp_http_log_exporter",
		LogsExporterMetricsHelper,
		undefined,
	);
	return new OTLPExporterBase(delegate);
}

const providers = new Map<string, LoggerProvider>();

function providerFor(target: OtlpTarget): LoggerProvider {
	const key = JSON.stringify([target.url, Object.entries(target.headers).sort()]);
	let provider = providers.get(key);
	if (!provider) {
		const exporter = exporterFor(target);
		provider = new LoggerProvider({
			resource: resourceFromAttributes({ "service.name": "xcsh-hooks", "service.version": VERSION }),
			processors: [new BatchLogRecordProcessor({ exporter, scheduledDelayMillis: 200, maxQueueSize: 2048, maxExportBatchSize: 512 })],
		});
		providers.set(key, provider);
	}
	return provider;
}

/** The record's attributes: the decision-log fields under `xcsh.*`, the agent's session also as `session.id`. */
export function decisionAttributes(entry: DecisionEntry): Record<string, string | number> {
	const attributes: Record<string, string | number> = {};
	const put = (key: string, value: string | number | undefined) => {
		if (value !== undefined && value !== "") attributes[key] = value;
	};
	put("xcsh.agent", entry.agent);
	put("xcsh.session", entry.session);
	put("session.id", entry.session); // the key the agents' own telemetry uses, for correlation
	put("xcsh.event", entry.event);
	put("xcsh.tool", entry.tool);
	put("xcsh.decision", entry.decision);
	put("xcsh.reason", entry.reason?.slice(0, 2000));
	put("xcsh.hook", entry.hook);
	put("xcsh.subagent", entry.subagent);
	put("xcsh.subagent_type", entry.subagentType);
	put("xcsh.mcp_server", entry.mcpServer);
	if (typeof entry.durationMs === "number" && Number.isFinite(entry.durationMs)) put("xcsh.duration_ms", entry.durationMs);
	return attributes;
}

/** Queues one decision as one log record (a deny at WARN, the rest at INFO). */
export function emitDecision(target: OtlpTarget, entry: DecisionEntry): void {
	const deny = entry.decision === "deny";
	const time = entry.time ? new Date(entry.time) : new Date();
	providerFor(target)
		.getLogger("xcsh-hooks.decisions", VERSION)
		.emit({
			timestamp: Number.isNaN(time.getTime()) ? new Date() : time,
			severityNumber: deny ? SeverityNumber.WARN : SeverityNumber.INFO,
			severityText: deny ? "WARN" : "INFO",
			eventName: "xcsh.decision",
			body: `${entry.decision} ${entry.tool ?? entry.event}${deny && entry.reason ? `: ${entry.reason}` : ""}`,
			attributes: decisionAttributes(entry),
		});
}

/** Sends every queued record now. */
export async function flushAll(): Promise<void> {
	await Promise.all([...providers.values()].map((provider) => provider.forceFlush()));
}
