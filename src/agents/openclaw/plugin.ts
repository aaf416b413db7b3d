import { NODE_CLIENT_IMPORTS, nodeClientSource } from "../_shared/node-client.ts";
import { PACKAGE_VERSION } from "../../package-version.ts";
import { OPENCLAW } from "./protocol.ts";

/*
 * The native OpenClaw plugin `install openclaw` writes: a folder with `package.json`
 * (`openclaw.extensions` names the entry), `openclaw.plugin.json` (the manifest: the id, loaded at
 * start-up, no config, and the `agentToolResultMiddleware` contract the tool-result middleware needs)
 * and `index.mjs`, plain ESM with no imports but Node's own (OpenClaw runs on Node; our runner is
 * not ported to it). Each hook forwards one event to `bridge openclaw` (bridge.ts) through the shared
 * client (../_shared/node-client.ts): the hook server's socket when one runs, else one process.
 *
 * - `before_tool_call` (no opt-in needed): a block is `{block: true, blockReason}`; a rewrite returns
 *   `{params}` with every key of the old input the hooks dropped set to `undefined`, since OpenClaw
 *   merges what a handler returns over the call's params. Any failure — no answer within the deadline,
 *   an answer that is not one, a key the plugin does not know, a thrown error — blocks the call with
 *   the reason; OpenClaw itself blocks the call when a handler throws or passes its timeout.
 * - `registerAgentToolResultMiddleware` (the only way to change what the model sees of a tool's
 *   output): `{content, details}` replace the result's.
 * - `before_prompt_build` (needs `hooks.allowConversationAccess` in the plugin's config entry, which
 *   install writes): `{prependContext}`. OpenClaw has no `before_agent_start` hook (it logs it as unknown).
 * - `subagent_spawned` (Gateway runs) is only noted: a subagent's calls then carry the session id of the
 *   session that started it (`parentSessionId`), so they count in that session.
 * A failed call on the last two leaves OpenClaw's value as it is and says so on stderr.
 */

/** The text each file of the folder holds: what marks it as one `install` wrote. */
export const PLUGIN_MARKER = `Written by \`xcsh-hooks install ${OPENCLAW.name}\``;

/** The plugin folder's files, by name, for the bridge `command` (`served`: a running server may answer instead). */
export function pluginFiles(command: string, served: boolean): Record<string, string> {
	return packageFiles(pluginSource(Object.fromEntries(OPENCLAW.forwarded.map((type) => [type, command])), served));
}

/** The folder's files around an entry's text (the suite writes its own commands into one). */
export function packageFiles(entry: string): Record<string, string> {
	const pkg = {
		name: "xcsh-hooks-openclaw",
		version: PACKAGE_VERSION,
		private: true,
		description: `${PLUGIN_MARKER}; \`xcsh-hooks uninstall ${OPENCLAW.name}\` removes this folder.`,
		type: "module",
		openclaw: { extensions: ["./index.mjs"] },
	};
	const manifest = {
		id: OPENCLAW.pluginId,
		name: "xcsh-hooks",
		description: `Runs xcsh hooks (.xcsh/hooks/, ~/.xcsh/agent/hooks/) on OpenClaw's tool calls, tool results and prompts. ${PLUGIN_MARKER}.`,
		version: PACKAGE_VERSION,
		activation: { onStartup: true },
		configSchema: { type: "object", additionalProperties: false },
		contracts: { agentToolResultMiddleware: ["openclaw"] },
	};
	return {
		"package.json": `${JSON.stringify(pkg, null, 2)}\n`,
		"openclaw.plugin.json": `${JSON.stringify(manifest, null, 2)}\n`,
		"index.mjs": entry,
	};
}

/**
 * The plugin's entry (`index.mjs`): `commands` maps each forwarded event (the payload's `type`) to the
 * command it runs; `deadlineMs` is how long a bridge process may take before it is killed.
 */
export function pluginSource(
	commands: Record<string, string>,
	served: boolean,
	deadlineMs = (OPENCLAW.timeoutSeconds + OPENCLAW.graceSeconds) * 1000,
): string {
	return `// ${PLUGIN_MARKER}; \`xcsh-hooks uninstall ${OPENCLAW.name}\` removes this folder.
// It forwards OpenClaw's tool calls, tool results and prompts to xcsh-hooks, which runs the hooks in
// .xcsh/hooks/ and ~/.xcsh/agent/hooks/.
${NODE_CLIENT_IMPORTS}

const COMMANDS = ${JSON.stringify(commands, null, "\t")};
// The agent the hook server answers for, or null: every call runs as a process (a managed entry).
const SERVED = ${JSON.stringify(served ? OPENCLAW.name : null)};
const HOOK_TIMEOUT_MS = ${OPENCLAW.hookTimeoutMs};

${nodeClientSource({ deadlineMs, timeoutSeconds: OPENCLAW.timeoutSeconds })}
const say = (line) => { try { process.stderr.write(line + "\\n"); } catch {} };
/** The workspace each session last built a prompt in (\`before_tool_call\`'s context does not carry it). */
const workspaces = new Map();
let configWorkspace;

function cwdOf(ctx, given) {
	if (typeof given === "string" && given) return given;
	const known = ctx && typeof ctx.sessionKey === "string" ? workspaces.get(ctx.sessionKey) : undefined;
	return known || configWorkspace || process.cwd();
}

/** Session ids by session key, and the session key that started each subagent's (its root: subagents start subagents). */
const sessionIds = new Map();
const requesters = new Map();
const remember = (map, key, value) => {
	map.delete(key);
	map.set(key, value);
	if (map.size > 1000) map.delete(map.keys().next().value);
};

function base(type, ctx, cwd) {
	const out = { type, cwd };
	const key = ctx && typeof ctx.sessionKey === "string" ? ctx.sessionKey : undefined;
	if (ctx && typeof ctx.sessionId === "string") {
		out.sessionId = ctx.sessionId;
		if (key) remember(sessionIds, key, ctx.sessionId);
	}
	if (key) out.sessionKey = key;
	// A subagent's calls count in the session that started it (one session file, one set of counters).
	const parent = key && requesters.has(key) ? sessionIds.get(requesters.get(key)) : undefined;
	if (parent) out.parentSessionId = parent;
	return out;
}

function subagentSpawned(event, ctx) {
	const child = (ctx && ctx.childSessionKey) || (event && event.childSessionKey);
	const requester = ctx && ctx.requesterSessionKey;
	if (typeof child === "string" && typeof requester === "string") remember(requesters, child, requesters.get(requester) || requester);
}

const blocked = (reason) => ({ block: true, blockReason: reason });
const BEFORE_TOOL_CALL_KEYS = ["block", "blockReason", "params"];

/** OpenClaw's answer to a before_tool_call: a block, \`{params}\` for a rewrite, or undefined. */
function toolCallAnswer(event, result) {
	if (result.failure) return blocked("xcsh-hooks: " + result.failure + " (blocked: a guard that cannot decide denies)");
	const answer = result.answer;
	const unknown = Object.keys(answer).filter((key) => !BEFORE_TOOL_CALL_KEYS.includes(key));
	if (unknown.length > 0) return blocked("xcsh-hooks: unexpected answer keys " + unknown.join(", ") + " (blocked)");
	if (answer.block === true) return blocked(typeof answer.blockReason === "string" && answer.blockReason.trim() ? answer.blockReason : "blocked by an xcsh hook");
	if (answer.params === undefined) return undefined;
	if (!isObject(answer.params)) return blocked("xcsh-hooks: a rewritten input must be an object (blocked)");
	// OpenClaw merges the returned params over the call's: a key the hooks dropped is set to undefined.
	const params = {};
	for (const key of Object.keys(isObject(event.params) ? event.params : {})) params[key] = undefined;
	for (const [key, value] of Object.entries(answer.params))
		Object.defineProperty(params, key, { value, writable: true, enumerable: true, configurable: true });
	return { params };
}

async function beforeToolCall(event, ctx) {
	if (!COMMANDS.before_tool_call) return undefined;
	try {
		const payload = { ...base("before_tool_call", ctx, cwdOf(ctx)), toolName: event.toolName, params: isObject(event.params) ? event.params : {} };
		if (typeof event.toolCallId === "string") payload.toolCallId = event.toolCallId;
		return toolCallAnswer(event, await callXcsh(COMMANDS[payload.type], SERVED, payload, payload.cwd, say));
	} catch (error) {
		return blocked("xcsh-hooks: " + (error && error.message) + " (blocked: a guard that cannot decide denies)");
	}
}

async function toolResult(event, ctx) {
	if (!COMMANDS.tool_result) return undefined;
	try {
		const result = isObject(event.result) ? event.result : {};
		const payload = { ...base("tool_result", ctx, cwdOf(ctx, event.cwd)), toolName: event.toolName, args: isObject(event.args) ? event.args : {}, content: result.content === undefined ? [] : result.content, details: result.details, isError: event.isError === true };
		if (typeof event.toolCallId === "string") payload.toolCallId = event.toolCallId;
		const answer = await callXcsh(COMMANDS[payload.type], SERVED, payload, payload.cwd, say);
		if (answer.failure) return say("xcsh-hooks tool_result: " + answer.failure);
		const next = { ...result };
		if (Array.isArray(answer.answer.content)) {
			next.content = answer.answer.content;
			// exec's details repeat its whole output (\`aggregated\`): a replaced output replaces that copy too.
			if (answer.answer.details === undefined && isObject(result.details) && typeof result.details.aggregated === "string")
				next.details = { ...result.details, aggregated: next.content.map((block) => (isObject(block) && typeof block.text === "string" ? block.text : "")).join("\\n") };
		}
		if (answer.answer.details !== undefined) next.details = answer.answer.details;
		return next.content === result.content && next.details === result.details ? undefined : { result: next };
	} catch (error) {
		say("xcsh-hooks tool_result: " + (error && error.message));
		return undefined;
	}
}

async function beforePromptBuild(event, ctx) {
	if (!COMMANDS.before_prompt_build) return undefined;
	try {
		const cwd = cwdOf(ctx, ctx && ctx.workspaceDir);
		if (ctx && typeof ctx.sessionKey === "string") workspaces.set(ctx.sessionKey, cwd);
		const payload = { ...base("before_prompt_build", ctx, cwd), prompt: typeof event.prompt === "string" ? event.prompt : "" };
		const answer = await callXcsh(COMMANDS[payload.type], SERVED, payload, cwd, say);
		if (answer.failure) return say("xcsh-hooks before_prompt_build: " + answer.failure);
		return typeof answer.answer.prependContext === "string" && answer.answer.prependContext ? { prependContext: answer.answer.prependContext } : undefined;
	} catch (error) {
		say("xcsh-hooks before_prompt_build: " + (error && error.message));
		return undefined;
	}
}

export default {
	id: ${JSON.stringify(OPENCLAW.pluginId)},
	name: "xcsh-hooks",
	register(api) {
		try {
			const workspace = api && api.config && api.config.agents && api.config.agents.defaults && api.config.agents.defaults.workspace;
			if (typeof workspace === "string" && workspace) configWorkspace = workspace;
		} catch {}
		api.on("before_tool_call", beforeToolCall, { timeoutMs: HOOK_TIMEOUT_MS });
		api.on("before_prompt_build", beforePromptBuild, { timeoutMs: HOOK_TIMEOUT_MS });
		api.on("subagent_spawned", subagentSpawned);
		if (typeof api.registerAgentToolResultMiddleware === "function")
			api.registerAgentToolResultMiddleware(toolResult, { runtimes: ["openclaw"] });
		else say("xcsh-hooks: this OpenClaw has no registerAgentToolResultMiddleware; tool results are not passed to hooks");
	},
};
`;
}
