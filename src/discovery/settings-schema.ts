import { type Static, Type } from "@sinclair/typebox";

/**
 * `settings.json` (project `<cwd>/.xcsh/settings.json`, user `~/.xcsh/agent/settings.json`).
 * Unknown keys are allowed and kept. Each property's `description` completes the warning
 * `<file>: <key> must be <description>`.
 */
export const SettingsSchema = Type.Object(
	{
		/** Extra hook files to load, besides the discovered ones. */
		hooks: Type.Optional(Type.Array(Type.String(), { description: "an array of strings" })),
		/** Discovery provider ids to skip (`native`, `claude`, `codex`). */
		disabledProviders: Type.Optional(Type.Array(Type.String(), { description: "an array of strings" })),
		/** Extension ids to skip, e.g. `hook:pre:bash:bash`. */
		disabledExtensions: Type.Optional(Type.Array(Type.String(), { description: "an array of strings" })),
		/** Per-handler timeout in milliseconds (the CLI's default for `tool_call`: 30 s). */
		hookTimeoutMs: Type.Optional(Type.Integer({ minimum: 0, description: "an integer ≥ 0" })),
		/** Time a hook may take to import, and then to run its factory, in milliseconds (default 10 s). */
		loadTimeoutMs: Type.Optional(Type.Integer({ minimum: 1, description: "an integer ≥ 1" })),
		/** Append guard decisions to `~/.xcsh/agent/decisions.jsonl` (default true; only the user's file counts). */
		decisionLog: Type.Optional(Type.Boolean({ description: "a boolean" })),
		/**
		 * Export decisions to an OpenTelemetry collector (OTLP/HTTP JSON); only the user's (or managed) file
		 * counts. `fromEnvironment: true` also honours the standard `OTEL_EXPORTER_OTLP_*` variables, which a
		 * project can add to the agent's environment: off unless the user says so.
		 */
		otlp: Type.Optional(
			Type.Object(
				{
					endpoint: Type.Optional(Type.String({ minLength: 1 })),
					headers: Type.Optional(Type.Record(Type.String(), Type.String())),
					fromEnvironment: Type.Optional(Type.Boolean()),
				},
				{
					additionalProperties: false,
					description: 'an object {"endpoint"?: "http://HOST:PORT", "headers"?: {NAME: VALUE}, "fromEnvironment"?: boolean}',
				},
			),
		),
		/** Let a `bridge` call start the hook server (`serve --socket`) when none runs (default true; only the user's file counts). */
		server: Type.Optional(Type.Boolean({ description: "a boolean" })),
		/** Minutes without a call before a server a bridge call started exits (default 10; 0: never; only the user's file counts). */
		serverIdleMinutes: Type.Optional(Type.Number({ minimum: 0, description: "a number ≥ 0" })),
		/**
		 * Signed lists of approved project hook hashes a team shares (read from the user's file and the
		 * root-owned /etc/xcsh/settings.json only, never a project's): each names the list, the trusted
		 * Ed25519 public key and, optionally, the signature file (default `<list>.sig`).
		 */
		teamApprovals: Type.Optional(
			Type.Array(Type.Object({ list: Type.String(), publicKey: Type.String(), signature: Type.Optional(Type.String()) }), {
				description: 'an array of {"list": path, "publicKey": base64 or PEM, "signature"?: path}',
			}),
		),
	},
	{ additionalProperties: true },
);
export type Settings = Static<typeof SettingsSchema>;
