/**
 * `xcsh-hooks serve`: the hook runner as a long-lived process speaking newline-delimited JSON.
 *
 * Transport: one JSON value per line, UTF-8, `\n`-terminated (a trailing `\r` is ignored, blank
 * lines are skipped). Requests `{id, method, params}` (id: string or number) go to stdin; every
 * request gets exactly one response line on stdout, `{id, result}` or `{id, error: {code, message}}`.
 * Requests run concurrently, so responses may come back in a different order: match them by `id`.
 * Each line is written whole, never interleaved with another. Human diagnostics (skipped untrusted
 * hooks, errors outside any request, hooks' `ui.notify`) go to stderr; hooks get the no-op UI.
 *
 * Methods (semantics are exactly the runner's, docs/contract.md#the-runner):
 * - `emit` — params: a hook event with its `type` (`toolCallId` generated when missing), dispatched
 *   as `xcsh-hooks emit` does. Result `{result, errors, loadErrors}`: `result` is the runner's
 *   (`null` when none); `errors` are the handler errors raised by this request only.
 * - `toolCall` — params `{toolName, toolCallId?, input}`. Result `{block: false}` or
 *   `{block: true, reason}`; a hook's ask is `{block: true, ask: true, reason, input?}` (a block to a
 *   caller that cannot ask). Fails closed: a throwing handler blocks, and so does any hook that
 *   failed to load unless the server runs with `--allow-load-errors`.
 * - `context` — params `{messages}`. Result `{messages, errors}` (the chained messages).
 * - `beforeAgentStart` — params `{prompt, images?}`. Result `{message?, errors}`.
 * - `command` — params `{name, args?}` (name with or without `/`; args the argument string).
 *   Runs the slash command with a command context. Result `{ok: true, errors}`.
 * - `reload` — no params. Re-discovers and re-imports every hook as fresh module instances.
 *   Result `{hooks, loadErrors}` (hook paths in load order).
 *
 * Error codes: `parse_error` (the line is not JSON; id `null`), `invalid_request` (not an object,
 * bad `id` or `method`; id `null` when the id itself is unusable), `invalid_params` (the message
 * names the field, e.g. `params.toolName: expected string`), `method_not_found`,
 * `command_not_found`, `handler_error` (a slash command threw), `reload_failed` (the previous hooks
 * stay loaded), `shutting_down`, `internal_error`. The server keeps running after every error.
 *
 * Notifications (lines without `id`, from the server): `{method: "ready", params: {hooks,
 * loadErrors, skipped, warnings}}` once hooks are loaded at start; `{method: "reloaded", params:
 * {hooks, loadErrors}}` after every automatic reload.
 *
 * Reloading: hook files (including ones that failed to load), the discovery folders (`.xcsh/hooks`,
 * `.claude/hooks`, `.codex/hooks`, project and user level, when discovery is on) and both settings
 * files are watched; changes are debounced (100 ms), then hooks reload. A request pins the hooks
 * that were current when it started and finishes on them; requests read after a reload began wait
 * for it and run on the new hooks. Only the hook files themselves are re-imported: modules they
 * import stay cached. The session (file, `sendMessage`/`appendEntry`) carries over a reload.
 *
 * Shutdown (stdin EOF, or a signal that would end the process: SIGTERM, SIGINT, SIGHUP, SIGQUIT,
 * SIGUSR1…, see src/process/signals.ts): stop reading, answer every request already read,
 * emit `session_shutdown` once (not again if a client already sent it with `emit`), close the
 * session, exit 0. A second signal exits at once with code 1. The server does not emit
 * `session_start`; the client emits it with `emit` when its session starts.
 */
export { createServer, type Server, type ServerOptions } from "./server.ts";
export { type RequestId, serveError, type ServeErrorCode, type ServeRequest, type ServeResponse } from "./requests.ts";
