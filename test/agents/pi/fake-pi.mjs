// A small stand-in for pi 0.73.1's extension runner (docs/agents/pi.md), run under real Node: it loads
// one extension file the way pi's loader does (default export called with the API object, awaited),
// then emits the events read from stdin as pi does: every handler awaited in sequence; tool_call: the
// first `{block}` wins, a returned `input` is ignored (only in-place changes of `event.input` count),
// a throw blocks; tool_result: `{content, details, isError}` chained; before_agent_start: `message`;
// context: a returned `messages` replaces the list, chained.
// Prints one JSON line per event: what pi would do with it.
import { pathToFileURL } from "node:url";

const [extension, cwd] = process.argv.slice(2);
const handlers = new Map();
const notifications = [];
// Only pi's own members: no logger, typebox or pi (the probe found them undefined).
const api = {
	on: (name, handler) => {
		if (!handlers.has(name)) handlers.set(name, []);
		handlers.get(name).push(handler);
	},
	registerTool() {},
	registerCommand() {},
	registerShortcut() {},
	registerFlag() {},
	getFlag() {},
	registerMessageRenderer() {},
	sendMessage() {},
	sendUserMessage() {},
	appendEntry() {},
	exec() {},
};
const ctx = {
	cwd,
	hasUI: false,
	ui: { notify: (line) => notifications.push(line) },
	sessionManager: { getSessionId: () => "fake-pi-session" },
	signal: new AbortController().signal,
};

let loadError;
try {
	const mod = await import(pathToFileURL(extension).href);
	await mod.default(api);
} catch (error) {
	loadError = String(error?.stack ?? error);
}

let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = [];
for (const event of JSON.parse(text)) {
	const list = handlers.get(event.type) ?? [];
	const original = event.input;
	const record = { type: event.type };
	try {
		if (event.type === "tool_call") {
			for (const handler of list) {
				const result = await handler(event, ctx);
				if (result?.block) {
					record.blocked = result.reason ?? "Tool execution was blocked";
					break;
				}
			}
			record.input = event.input;
			record.sameObject = event.input === original;
		} else if (event.type === "tool_result") {
			const current = { content: event.content, details: event.details, isError: event.isError };
			for (const handler of list) {
				const result = await handler({ ...event, ...current }, ctx);
				if (result?.content !== undefined) current.content = result.content;
				if (result?.details !== undefined) current.details = result.details;
				if (result?.isError !== undefined) current.isError = result.isError;
			}
			record.result = current;
		} else if (event.type === "context") {
			// pi's emitContext: the handlers chain on a copy; a returned \`messages\` replaces the list.
			let current = structuredClone(event.messages);
			for (const handler of list) {
				const result = await handler({ type: "context", messages: current }, ctx);
				if (result?.messages) current = result.messages;
			}
			record.messages = current;
		} else {
			const results = [];
			for (const handler of list) results.push(await handler(event, ctx));
			record.results = results;
		}
	} catch (error) {
		record.threw = String(error?.message ?? error);
		if (event.type === "tool_call") record.blocked = record.threw; // pi: a throw in tool_call becomes the tool result
	}
	out.push(record);
}
process.stdout.write(`${JSON.stringify({ loadError, registered: [...handlers.keys()], notifications, events: out })}\n`);
