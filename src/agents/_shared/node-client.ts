import { PACKAGE_VERSION } from "../../package-version.ts";
import { RUNTIME_VARIABLE } from "./entry-shell.ts";

/*
 * The client half of the plugins we write into agents that run on Node (pi's extension, OpenClaw's
 * plugin): plain JavaScript text with no imports but Node's own, embedded whole in each generated file,
 * so nothing is installed beside it. One call of `callXcsh(...)`:
 *
 * 1. Through the hook server (`serve --socket`, src/socket/protocol.ts), as `bridge <agent>`
 *    forwards (src/socket/forward.ts): the same request line and payload, the same `ready` / `go` /
 *    answer exchange, the same trust in the socket — its folder the user's and writable by nobody else,
 *    the socket the user's — and the same cases that never use a server (the organisation's system
 *    hook folder exists; a managed entry). No process is started: the call costs one local connection.
 * 2. Otherwise the bridge as a process (the command `install` wrote), payload on stdin: nothing listens
 *    there (that bridge call then starts the server, so the calls after it are served), the socket is
 *    not to be trusted (said once per call), the server refused or did not say `ready` within 1 s, is
 *    of another version. Nothing ran on the server in these cases: it runs a call only after `go`.
 *
 * Once `go` is sent the server owns the call: whatever goes wrong from then on (the connection drops,
 * no answer within the deadline, a reply that is not an answer, an answer that is not JSON) is a
 * `{failure}`, which the caller turns into a block on a tool call — never a second run.
 * `callXcsh` resolves `{answer}` (the bridge's JSON answer, an object) or `{failure}`; it never rejects.
 */

// The protocol's facts, as src/socket/protocol.ts and src/decisions/otlp-queue.ts have them (agents
// import neither layer; a test holds them equal).
export const GO_LINE = '{"go":true}\n';
export const VERDICTS = ["allow", "deny", "rewrite", "ask", "none"] as const;
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
/** The system hook folder (src/discovery/system.ts): when it exists, no call uses the user's server. */
export const SYSTEM_HOOKS_DIR = "/etc/xcsh/hooks";
/** The flag of a managed entry's command (src/install/marker.ts): such a call never uses the server. */
export const MANAGED_FLAG = "--managed";

/** The imports the client's text needs, for the top of the generated module. */
export const NODE_CLIENT_IMPORTS = [
	'import { spawn } from "node:child_process";',
	'import { statSync } from "node:fs";',
	'import { createConnection } from "node:net";',
	'import { homedir } from "node:os";',
].join("\n");

/** Settings of one generated client. */
export interface NodeClientOptions {
	/** How long a spawned bridge may take before it is killed (and a tool call blocked). */
	deadlineMs: number;
	/** The bridge's own deadline in seconds: the server's answer may take this plus the grace. */
	timeoutSeconds: number;
	/** The version the request carries (a server of another version refuses it); default this package's. */
	version?: string;
}

/** The client's JavaScript text (after {@link NODE_CLIENT_IMPORTS}). */
export function nodeClientSource(options: NodeClientOptions): string {
	return `// ---- xcsh-hooks client: the hook server's socket first, else one bridge process ----
const XCSH_VERSION = ${JSON.stringify(options.version ?? PACKAGE_VERSION)};
const DEADLINE_MS = ${options.deadlineMs};
const ANSWER_MS = ${options.timeoutSeconds * 1000 + 2000};
const ACCEPT_MS = 1000;
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
const SYSTEM_HOOKS_DIR = ${JSON.stringify(SYSTEM_HOOKS_DIR)};
const GO_LINE = ${JSON.stringify(GO_LINE)};
const VERDICTS = ${JSON.stringify(VERDICTS)};
const OTLP_VARIABLES = ${JSON.stringify(OTLP_VARIABLES)};
// What Bun acts on before xcsh-hooks' own code runs (a crash, plain Bun, a preload of the project's): never passed on.
const RUNTIME_VARIABLE = new RegExp(${JSON.stringify(RUNTIME_VARIABLE.source)});
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);

/** The agent's environment without the variables Bun reads at start-up. */
function bridgeEnvironment() {
	const env = {};
	for (const [name, value] of Object.entries(process.env)) if (!RUNTIME_VARIABLE.test(name)) env[name] = value;
	return env;
}

/** \`~/.xcsh/agent/bridge.sock\`, where \`bridge\` calls look for the server. */
function xcshSocketPath() {
	return (process.env.HOME || process.env.USERPROFILE || homedir()).replace(/\\/+$/, "") + "/.xcsh/agent/bridge.sock";
}

/** The organisation's system hook folder is there: every call runs in its own process, never on the user's server. */
function managedMachine() {
	// No exception for the usual case, a missing folder (building one costs more than the stat).
	try { return statSync(SYSTEM_HOOKS_DIR, { throwIfNoEntry: false }) !== undefined; } catch { return false; }
}

/** Why the server at \`path\` is not to be trusted; null when it is; undefined when there is none (no socket there). */
function socketProblem(path) {
	const folder = path.slice(0, path.lastIndexOf("/")) || "/";
	let file;
	try { file = statSync(path, { throwIfNoEntry: false }); } catch { return undefined; }
	if (file === undefined || !file.isSocket()) return undefined;
	const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
	if (uid === undefined) return null;
	let dir;
	try { dir = statSync(folder); } catch { return folder + " is not a folder"; }
	if (!dir.isDirectory()) return folder + " is not a folder";
	if (dir.uid !== uid) return folder + " belongs to another user (uid " + dir.uid + ")";
	if ((dir.mode & 0o022) !== 0) return folder + " may be written by other users (mode " + (dir.mode & 0o777).toString(8) + "); run: chmod go-w " + folder;
	if (file.uid !== uid) return path + " belongs to another user (uid " + file.uid + ")";
	return null;
}

/** What is wrong with a reply taken for an answer; undefined when it is one. */
function notAnAnswer(a) {
	if (!isObject(a) || typeof a.stdout !== "string" || !Array.isArray(a.stderr) || !a.stderr.every((line) => typeof line === "string")) return "its reply is not an answer";
	if (!VERDICTS.includes(a.verdict)) return "its answer has no verdict (a serve --socket of an older version? restart it)";
	if ((a.verdict === "deny" || a.verdict === "rewrite" || a.verdict === "ask") && !a.stdout.trim()) return "its " + a.verdict + " answer is empty";
	return undefined;
}

/** The bridge's printed answer as an object (empty: no opinion); a failure when it is not one. */
function parsedAnswer(text) {
	const trimmed = text.trim();
	if (!trimmed) return { answer: {} };
	let answer;
	try { answer = JSON.parse(trimmed); } catch { return { failure: "xcsh-hooks answered what is not JSON: " + trimmed.slice(0, 200) }; }
	return isObject(answer) ? { answer } : { failure: "xcsh-hooks answered what is not a JSON object: " + trimmed.slice(0, 200) };
}

/**
 * One call through the hook server at \`socket\`: {answer} or {failure} once the server owns it, or
 * {local: why} when nothing ran there (the caller runs the bridge). Never rejects.
 */
function serverCall(agent, payload, pwd, say, socket) {
	if (managedMachine()) return Promise.resolve({ local: "the system hook folder is there" });
	const problem = socketProblem(socket);
	if (problem === undefined) return Promise.resolve({ local: "no hook server is running" });
	if (problem !== null) {
		say("xcsh-hooks: not using the hook server at " + socket + ": " + problem + "; the call runs in its own process");
		return Promise.resolve({ local: problem });
	}
	return new Promise((resolve) => {
		const env = {};
		for (const name of OTLP_VARIABLES) if (process.env[name]) env[name] = process.env[name];
		const body = Buffer.from(JSON.stringify(payload), "utf8");
		const request = { agent, version: XCSH_VERSION, pwd, env, length: body.length };
		let owned = false;
		let done = false;
		let buffered = "";
		let timer;
		let connection;
		const finish = (result) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			try { connection.destroy(); } catch {}
			resolve(result);
		};
		const fail = (why) => finish(owned ? { failure: "the hook server at " + socket + " failed: " + why } : { local: why });
		const wait = (ms) => {
			clearTimeout(timer);
			timer = setTimeout(() => fail("no reply within " + Math.round(ms / 1000) + " s"), ms);
		};
		const onLine = (line) => {
			let reply;
			try { reply = JSON.parse(line); } catch { return fail("its reply is not JSON"); }
			if (!owned) {
				if (!isObject(reply) || (reply.ready !== true && reply.accepted !== true))
					return fail(isObject(reply) && typeof reply.refused === "string" ? "it refused the call: " + reply.refused : "its first reply is not ready");
				owned = true;
				if (reply.ready === true) connection.write(GO_LINE);
				return wait(ANSWER_MS);
			}
			const wrong = notAnAnswer(reply);
			if (wrong !== undefined) return fail(wrong);
			for (const line of reply.stderr) if (line.trim()) say(line);
			const parsed = parsedAnswer(reply.stdout);
			finish(parsed.failure ? { failure: "the hook server at " + socket + " failed: " + parsed.failure } : parsed);
		};
		try {
			connection = createConnection({ path: socket });
		} catch (error) {
			return finish({ local: "could not connect: " + (error && error.message) });
		}
		wait(ACCEPT_MS);
		connection.setEncoding("utf8");
		connection.on("error", (error) => fail(error && error.message ? error.message : String(error)));
		connection.on("close", () => fail("the connection closed before the answer"));
		connection.on("data", (chunk) => {
			buffered += chunk;
			if (buffered.length > MAX_ANSWER_BYTES) return fail("its answer is longer than " + MAX_ANSWER_BYTES + " bytes");
			for (let end = buffered.indexOf("\\n"); end >= 0 && !done; end = buffered.indexOf("\\n")) {
				const line = buffered.slice(0, end);
				buffered = buffered.slice(end + 1);
				onLine(line);
			}
		});
		// One write: the request line and its payload arrive together (the server reads them in one go).
		connection.write(Buffer.concat([Buffer.from(JSON.stringify(request) + "\\n", "utf8"), body]));
	});
}

/** One bridge process: resolves {answer} or {failure}, never rejects. */
function spawnBridge(command, payload, cwd, say) {
	return new Promise((resolve) => {
		let done = false;
		let stdout = "";
		let stderr = "";
		let child;
		const finish = (result) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			for (const line of stderr.split("\\n")) if (line.trim()) say(line);
			resolve(result);
		};
		// The call runs in its own process group, so a deadline kills whatever it started, too.
		const kill = () => {
			try { process.kill(-child.pid, "SIGKILL"); } catch { try { child.kill("SIGKILL"); } catch {} }
		};
		const timer = setTimeout(() => {
			kill();
			finish({ failure: "xcsh-hooks gave no answer within " + DEADLINE_MS / 1000 + " s" });
		}, DEADLINE_MS);
		try {
			child = spawn("/bin/sh", ["-c", command], { cwd, env: bridgeEnvironment(), stdio: ["pipe", "pipe", "pipe"], detached: true });
		} catch (error) {
			return finish({ failure: "could not start xcsh-hooks (" + command + "): " + (error && error.message) });
		}
		child.on("error", (error) => finish({ failure: "could not start xcsh-hooks (" + command + "): " + error.message }));
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (chunk) => {
			stdout += chunk;
			if (stdout.length > MAX_ANSWER_BYTES) {
				kill();
				finish({ failure: "xcsh-hooks answered more than " + MAX_ANSWER_BYTES + " bytes" });
			}
		});
		child.stderr.on("data", (chunk) => { if (stderr.length < 65536) stderr += chunk; });
		child.stdin.on("error", () => {}); // an early exit closes the pipe: its exit code tells what happened
		// Settled once the call has exited and its stdout has ended, not on "close": that also waits for
		// stderr, which a hook's background child may hold open long after the answer was given.
		let exit;
		let stdoutEnded = false;
		const settle = () => {
			if (!exit || !stdoutEnded) return;
			const [code, signal] = exit;
			const parsed = parsedAnswer(stdout);
			if (parsed.failure) return finish(parsed);
			if (parsed.answer.block === true) return finish(parsed);
			if (code !== 0) return finish({ failure: "xcsh-hooks " + (signal ? "was killed by " + signal : "exited " + code) + (stderr.trim() ? ": " + stderr.trim().split("\\n").pop() : "") });
			finish(parsed);
		};
		child.on("exit", (code, signal) => { exit = [code, signal]; settle(); });
		child.stdout.on("end", () => { stdoutEnded = true; settle(); });
		child.stdout.on("close", () => { stdoutEnded = true; settle(); });
		child.stdin.end(JSON.stringify(payload));
	});
}

/**
 * One call of the hooks: through the server when \`served\` names the agent (and it can be used), else
 * \`command\` as a process. Resolves {answer} or {failure}; never rejects.
 */
async function callXcsh(command, served, payload, cwd, say) {
	try {
		if (served) {
			const result = await serverCall(served, payload, cwd, say, xcshSocketPath());
			if (!result.local) return result;
		}
		return await spawnBridge(command, payload, cwd, say);
	} catch (error) {
		return { failure: "forwarding failed: " + (error && error.message) };
	}
}
// ---- end of the xcsh-hooks client ----
`;
}
