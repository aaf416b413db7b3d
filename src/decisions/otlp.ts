/*
 * Decisions to the OpenTelemetry collector a team already runs. This module is what every decision
 * pays: one look at the environment and the settings. The SDK (src/decisions/otlp-export.ts) is
 * imported only once a record is to be exported, so a call with export off loads none of it.
 */

import { readRootOnlyJson, SYSTEM_SETTINGS_FILE } from "../fs/root-owned.ts";
import type { OtlpTarget } from "./otlp-queue.ts";

/** The `otlp` key of the user's (or managed) settings. */
export interface OtlpSettings {
	/** Base URL of the collector's OTLP/HTTP receiver (`http://127.0.0.1:4318`); `/v1/logs` is appended. */
	endpoint?: string;
	/** Extra request headers (an API key, a tenant). */
	headers?: Record<string, string>;
	/**
	 * Also honour the standard `OTEL_EXPORTER_OTLP_*` variables (default false): the agent's environment is
	 * not the user's alone — a project can add to it (Claude Code's `env`, Gemini CLI's `.env`).
	 */
	fromEnvironment?: boolean;
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

/** The `otlp` object of a settings file, or `undefined`. */
function otlpOf(settings: Readonly<Record<string, unknown>> | undefined): Partial<OtlpSettings> | undefined {
	const value = settings?.otlp;
	return value && typeof value === "object" && !Array.isArray(value) ? (value as Partial<OtlpSettings>) : undefined;
}

/** The collector an `otlp` object names in `endpoint`, with its headers, or `undefined`. */
function settingsTarget(configured: Partial<OtlpSettings> | undefined): OtlpTarget | undefined {
	if (typeof configured?.endpoint !== "string") return undefined;
	const url = withLogsPath(configured.endpoint.trim());
	return isHttpUrl(url) ? { url, headers: settingsHeaders(configured.headers) } : undefined;
}

/**
 * The collector the standard variables name, or `undefined` (none, or turned off): `OTEL_SDK_DISABLED=true`
 * or `OTEL_LOGS_EXPORTER=none` turn export off; only OTLP over HTTP with JSON is sent, so a `grpc` or
 * `http/protobuf` protocol exports nothing. `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` (the full URL) comes before
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (a base, `/v1/logs` appended), then the settings' own `endpoint`; the
 * variables' headers are added to the settings' ones.
 */
function environmentTarget(configured: Partial<OtlpSettings> | undefined, env: Env): OtlpTarget | undefined {
	if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
	if (env.OTEL_LOGS_EXPORTER?.trim().toLowerCase() === "none") return undefined;
	const protocol = (env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim().toLowerCase();
	if (protocol && protocol !== "http/json") return undefined;
	const fromEnv = env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT?.trim() || undefined;
	const baseFromEnv = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
	const url = fromEnv ?? (baseFromEnv ? withLogsPath(baseFromEnv) : undefined);
	const target = url === undefined ? settingsTarget(configured) : isHttpUrl(url) ? { url, headers: {} } : undefined;
	if (!target) return undefined;
	Object.assign(target.headers, parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS), parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_LOGS_HEADERS));
	return target;
}

/**
 * Where this call's decisions are exported, or `undefined` (the default: nowhere). The collector is named
 * by the user's settings (`settings` here are the user's: discovery drops a project's `otlp`, so a cloned
 * repository cannot send your decisions anywhere) or by the machine's root-only `/etc/xcsh/settings.json`.
 * When the organisation names a collector there, every decision goes there and nothing the user sets — no
 * variable, no user setting — turns it off or sends it elsewhere (the same file's `teamApprovals` are the
 * organisation's too). The standard `OTEL_EXPORTER_OTLP_*` variables (and `OTEL_SDK_DISABLED`) count only
 * where the user's or the managed `otlp` says `"fromEnvironment": true`: the agent's environment is not the
 * user's alone — a project can add to it. An endpoint that is not an http(s) URL exports nothing.
 */
export function otlpTarget(
	settings: Readonly<Record<string, unknown>> | undefined,
	env: Env = process.env,
	managedFile: string = SYSTEM_SETTINGS_FILE,
): OtlpTarget | undefined {
	const managed = otlpOf(readRootOnlyJson(managedFile).value);
	const fixed = settingsTarget(managed);
	if (fixed) return fixed;
	const configured = otlpOf(settings);
	if (configured?.fromEnvironment === true || managed?.fromEnvironment === true) return environmentTarget(configured, env);
	return settingsTarget(configured);
}

export { exportDecision, flushDecisionExports, OTLP_VARIABLES, type OtlpTarget } from "./otlp-queue.ts";
