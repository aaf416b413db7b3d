import { expect, test } from "bun:test";
import type { ArgsDef } from "citty";
import { parseArgs } from "../../src/cli/_args.ts";

const defs = {
	type: { type: "positional", description: "" },
	extra: { type: "positional", required: false, description: "" },
	data: { type: "string", description: "" },
	hook: { type: "string", alias: ["extension", "e"], description: "" },
	discovery: { type: "boolean", default: true, description: "" },
	json: { type: "boolean", description: "" },
	template: { type: "enum", options: ["guard", "shell"], description: "" },
} satisfies ArgsDef;

test("positionals, --name value, --name=value, aliases, booleans and --no-", () => {
	expect(parseArgs(["tool_call", "--data", "{}", "-e", "a.ts", "--json", "--no-discovery", "more"], defs, "emit")).toEqual({
		_: ["tool_call", "more"],
		type: "tool_call",
		extra: "more",
		data: "{}",
		hook: ["a.ts"],
		discovery: false,
		json: true,
	});
	expect(parseArgs(["x", '--data={"a":1}', "--extension=b.ts", "--json=false", "-e", "c.ts"], defs, "emit")).toMatchObject({
		data: '{"a":1}',
		hook: ["b.ts", "c.ts"],
		json: false,
		discovery: true,
	});
	expect(parseArgs(["x", "--", "--data", "y"], defs, "emit")._).toEqual(["x", "--data", "y"]);
	expect(parseArgs(["--json", "name", "--dry-run", "-x"], defs, "command", { restAfter: 1 })).toMatchObject({
		_: ["name", "--dry-run", "-x"],
		json: true,
	});
});

test("errors name the option or argument at fault", () => {
	expect(() => parseArgs(["x", "--dta", "{}"], defs, "emit")).toThrow('unknown option --dta (did you mean "--data"?)');
	expect(() => parseArgs(["x", "--zzzzzz"], defs, "emit")).toThrow("unknown option --zzzzzz; see xcsh-hooks emit --help");
	expect(() => parseArgs(["x", "--data"], defs, "emit")).toThrow("--data needs a value");
	expect(() => parseArgs(["x", "--template", "nope"], defs, "init")).toThrow("--template nope: expected one of guard, shell");
	expect(() => parseArgs([], defs, "emit")).toThrow("missing TYPE");
});
