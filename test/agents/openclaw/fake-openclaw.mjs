// A small stand-in for OpenClaw 2026.9.6's plugin host (docs/agents/openclaw.md), run under real Node: it
// loads one plugin folder the way OpenClaw does (package.json `openclaw.extensions`, the default export's
// `register(api)`), then emits the events read from stdin ([{hook, event, ctx}]) as OpenClaw does:
// before_tool_call: a `{block}` is terminal, a returned `params` is merged over the call's
// (`{...params, ...returned}`), a throw blocks ("Tool call blocked because before_tool_call hook failed");
// tool_result_middleware: a returned `{result}` replaces the result; before_prompt_build: `prependContext`.
// Prints one JSON object: what registered, and per event what OpenClaw would do.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [folder, workspace] = process.argv.slice(2);
const hooks = new Map();
const middleware = [];
const options = {};
const api = {
	id: "xcsh-hooks",
	config: { agents: { defaults: { workspace } } },
	on(name, handler, opts) {
		hooks.set(name, handler);
		options[name] = opts;
	},
	registerAgentToolResultMiddleware(handler, opts) {
		middleware.push(handler);
		options.middleware = opts;
	},
};
const pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(folder, "openclaw.plugin.json"), "utf8"));
const mod = await import(pathToFileURL(join(folder, pkg.openclaw.extensions[0])).href);
mod.default.register(api);

let text = "";
for await (const chunk of process.stdin) text += chunk;
const out = [];
for (const { hook, event, ctx } of JSON.parse(text)) {
	if (hook === "before_tool_call") {
		let returned;
		try {
			returned = await hooks.get(hook)(event, ctx);
		} catch {
			out.push({ blocked: "Tool call blocked because before_tool_call hook failed" });
			continue;
		}
		if (returned && returned.block === true) out.push({ blocked: returned.blockReason ?? "Tool call blocked by plugin hook" });
		else if (returned?.params)
			out.push({
				params: { ...event.params, ...returned.params },
				undefinedKeys: Object.keys(returned.params).filter((k) => returned.params[k] === undefined),
			});
		else out.push({ runs: event.params });
	} else if (hook === "tool_result_middleware") {
		const returned = await middleware[0](event, ctx);
		out.push({ result: returned ? returned.result : event.result });
	} else if (hook === "subagent_spawned") {
		await hooks.get(hook)(event, ctx);
		out.push({ noted: true });
	} else if (hook === "before_prompt_build") {
		out.push({ returned: (await hooks.get(hook)(event, ctx)) ?? null });
	}
}
console.log(JSON.stringify({ id: mod.default.id, manifest, registered: [...hooks.keys()], middleware: middleware.length, options, out }));
