/*
 * Decisions to the OpenTelemetry collector a team already runs. This module is what every decision
 * pays: one look at the environment and the settings. The SDK (src/decisions/otlp-export.ts) is
 * imported only once a record is to be exported, so a call with export off loads none of it.
 */

import { readRootOnlyJson, SYSTEM_SETTINGS_FILE } from "../fs/root-owned.ts";
import type { OtlpTarget } from "./otlp-queue.ts";

/** The `otlp` key of the user's (or managed) settings: the settings' form of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
export interface OtlpSettings {
	/** Base URL of the collector's OTLP/HTTP receiver (`http://127.0.0.1:4318`); `/v1/logs` is appended. */
	endpoint: string;
	/** Extra request headers (an API key, a tenant). */
	headers?: Record<string, string>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** `k=v,k2=v2` (values URL-encoded), the form of `OTEL_EXPORTER_OTLP_HEADERS`; malformed pairs are skipped. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const pair of (text ?? "").split(",")) {
		const at = pair.indexOf("=");
		if (at <= 0) continue;
		try {
			const key = decodeURIComponent(pair.slice(0, at)).trim();
			if (key) headers[key] = decodeURIComponent(pair.slice(at + 1)).trim();
		} catch {
			// a bad escape drops that header, not the export
		}
	}
	return headers;
}

const isHttpUrl = (text: string): boolean => {
	try {
		const url = new URL(text);
		return url.protocol === "http:" || url.protocol === "https:";
	} catch {
		return false;
	}
};

const withLogsPath = (base: string): string => `${base.replace(/\/+$/, "")}/v1/logs`;

/** The string-valued headers of a settings' `otlp.headers`. */
function settingsHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (headers && typeof headers === "object")
		for (const [key, value] of Object.entries(headers)) if (typeof value === "string") result[key] = value;
	return result;
}

/** The collector the machine's root-only `/etc/xcsh/settings.json` names in `otlp`, or `undefined`. */
function managedTarget(file: string): OtlpTarget | undefined {
	const configured = readRootOnlyJson(file).value?.otlp as Partial<OtlpSettings> | undefined;
	if (!configured || typeof configured !== "object" || typeof configured.endpoint !== "string") return undefined;
	const url = withLogsPath(configured.endpoint.trim());
	return isHttpUrl(url) ? { url, headers: settingsHeaders(configured.headers) } : undefined;
}

/**
 * Where this call's decisions are exported, or `undefined` (the default: nowhere). First the managed
 * `otlp` of `/etc/xcsh/settings.json` (read only while it is root's alone): when the organisation names a
 * collector there, every decision goes there and nothing the user sets — no variable, not even
 * `OTEL_SDK_DISABLED`, no user setting — turns it off or sends it elsewhere (the same file's
 * `teamApprovals` are the organisation's too). Otherwise, in order: `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT`
 * (the full URL), `OTEL_EXPORTER_OTLP_ENDPOINT` (a base, `/v1/logs` appended), then the settings'
 * `otlp.endpoint` (a base) — settings here are the user's: a project's file cannot set it (discovery
 * drops it), so a cloned repository cannot send your decisions anywhere. `OTEL_SDK_DISABLED=true` or
 * `OTEL_LOGS_EXPORTER=none` turn that off; only OTLP over HTTP with JSON is sent, so a `grpc` or
 * `http/protobuf` protocol setting exports nothing. An endpoint that is not an http(s) URL exports nothing either.
 */
export function otlpTarget(
	settings: Readonly<Record<string, unknown>> | undefined,
	env: Env = process.env,
	managedFile: string = SYSTEM_SETTINGS_FILE,
): OtlpTarget | undefined {
	const managed = managedTarget(managedFile);
	if (managed) return managed;
	if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
	if (env.OTEL_LOGS_EXPORTER?.trim().toLowerCase() === "none") return undefined;
	const protocol = (env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim().toLowerCase();
	if (protocol && protocol !== "http/json") return undefined;
	const fromEnv = env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT?.trim() || undefined;
	const baseFromEnv = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
	const configured = settings?.otlp as Partial<OtlpSettings> | undefined;
	const url =
		fromEnv ??
		(baseFromEnv ? withLogsPath(baseFromEnv) : typeof configured?.endpoint === "string" ? withLogsPath(configured.endpoint) : undefined);
	if (url === undefined || !isHttpUrl(url)) return undefined;
	const headers = !fromEnv && !baseFromEnv ? settingsHeaders(configured?.headers) : {};
	Object.assign(headers, parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_LOGS_HEADERS));
	return { url, headers };
}

export { exportDecision, flushDecisionExports, OTLP_VARIABLES, type OtlpTarget } from "./otlp-queue.ts";
