// Loads one pi extension file under Node (as pi does: default export called with the API) and emits one
// tool_call (argv[3], JSON) to its handler; prints what the tool would run with: the handler's answer,
// `event.input`'s prototype and the command it reads. Used by pi-extension-review.test.ts.
import { pathToFileURL } from "node:url";

const [extension, eventJson] = process.argv.slice(2);
const handlers = new Map();
const api = { on: (name, handler) => handlers.set(name, handler) };
const mod = await import(pathToFileURL(extension).href);
mod.default(api);
const event = JSON.parse(eventJson);
const ctx = { cwd: process.cwd(), hasUI: false, sessionManager: { getSessionId: () => "s" } };
const answer = await handlers.get("tool_call")(event, ctx);
process.stdout.write(
	`${JSON.stringify({
		answer: answer ?? null,
		protoKept: Object.getPrototypeOf(event.input) === Object.prototype,
		command: event.input.command ?? null,
		ownKeys: Object.keys(event.input),
	})}\n`,
);
process.exit(0);
