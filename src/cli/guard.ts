import { relative } from "pathe";
import { createShellGuard, PACKS, type PackName, type ShellCommand, type ShellExplanation } from "../guards/index.ts";
import { observeShellGuards } from "../guards/observe.ts";
import type { Dispatched } from "../host/dispatch.ts";
import type { Host } from "../host/host.ts";
import { unknownName } from "../suggest.ts";
import { cliError, EXIT_BLOCKED, EXIT_OK, defineCommand, globalArgs, hookPaths, printJson, projectDir, writeOut } from "./_shared.ts";

/*
 * `guard explain` judges a command as the project's hooks do: it loads them as `emit` does (discovery,
 * trust: an unapproved project file is never imported), sends them the bash call with no terminal to
 * ask at, and hears every shell guard that decides meanwhile (src/guards/observe.ts). When none does,
 * it says why and judges with the default packs instead; `--packs`/`--allow-path` judge with those.
 */

/** Which guard judged, and what the project's hooks answered (absent with `--packs`/`--allow-path`). */
interface Source {
	kind: "project" | "default" | "options";
	/** The hooks that handle `tool_call` (with a guard among them for `project`). */
	hooks: string[];
	/** Project hooks not run because nobody approved them, with the command that would. */
	notApproved: Array<{ path: string; approve: string }>;
	/** Hooks that failed to load (changed since approved, broken): a `tool_call` is then blocked. */
	failed: Array<{ path: string; error: string }>;
	/** The hooks' answer to the call, as `emit tool_call` gives it. */
	answer?: { verdict: "block" | "ask" | "allow"; reason?: string; hook?: string };
}

/** The fields of a command `describe` shows in its first line; any other field is listed after it. */
const SHOWN = new Set(["program", "args", "computed", "computedProgram", "via", "deletes", "cwd"]);

/** One command as the analyzer saw it: what runs it, then the program and its arguments, then what else it knows. */
function describe(command: ShellCommand, start: string): string[] {
	const words = [command.program, ...command.args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word)));
	const via = command.via.length > 0 ? `  (via ${command.via.join(" > ")})` : "";
	const extra = command.deletes?.length ? `  deletes: ${command.deletes.map((d) => d.call).join(", ")}` : "";
	const facts: string[] = [];
	if (command.cwd !== start) facts.push(`cwd ${command.cwd ?? "unknown (computed)"}`);
	if (command.computedProgram) facts.push("program computed");
	const computed = command.args.filter((_, i) => command.computed[i]);
	if (computed.length > 0) facts.push(`computed: ${computed.join(" ")}`);
	// Whatever else the analyzer records (stdin, redirects, new fields) shows up as it is.
	for (const [key, value] of Object.entries(command)) {
		if (SHOWN.has(key) || value === undefined || value === false || (Array.isArray(value) && value.length === 0)) continue;
		facts.push(`${key}: ${JSON.stringify(value)}`);
	}
	return [`  ${words.join(" ")}${via}${extra}`, ...(facts.length > 0 ? [`      ${facts.join("; ")}`] : [])];
}

const VERDICT_LINE = {
	block: (e: ShellExplanation) => `blocked by ${e.rule}: ${e.reason}`,
	ask: (e: ShellExplanation) => `ask by ${e.rule}: ${e.reason} (a person may allow it)`,
	allow: () => "allowed: no rule matched",
};

function report(explanation: ShellExplanation, source: Source, cwd: string, others: number): string {
	const show = (path: string) => (path.startsWith(`${cwd}/`) ? `./${relative(cwd, path)}` : path);
	const g = explanation.guard;
	const which = {
		project: `the guard of the project's hooks (${source.hooks.map(show).join(", ")})`,
		default: `the default packs: ${
			source.failed.length > 0
				? "a hook failed to load"
				: source.notApproved.length > 0
					? "instead of the project hooks nobody approved"
					: source.hooks.length > 0
						? "no hook here ran a shell guard"
						: "no hook here handles tool_call"
		}`,
		options: "the packs and paths given on the command line",
	}[source.kind];
	const setup = [
		`packs ${g.packs.join(", ") || "(none)"}`,
		...(g.disable.length > 0 ? [`off: ${g.disable.join(", ")}`] : []),
		...(Object.keys(g.verdicts).length > 0
			? [
					`verdicts: ${Object.entries(g.verdicts)
						.map(([k, v]) => `${k}=${v}`)
						.join(", ")}`,
				]
			: []),
		...(g.allowPaths.length > 0 ? [`allowPaths: ${g.allowPaths.join(", ")}`] : []),
		...(g.rules.length > 0 ? [`own rules: ${g.rules.join(", ")}`] : []),
	];
	const lines = [`judged by ${which}`, `  ${setup.join("; ")}`];
	for (const skip of source.notApproved) lines.push(`  not approved, so never loaded: ${show(skip.path)} (${skip.approve})`);
	for (const failure of source.failed) lines.push(`  failed to load: ${show(failure.path)}: ${failure.error}`);
	if (others > 0) lines.push(`  (${others + 1} guards decided; this is the strictest)`);
	lines.push(`commands, after unwrapping, from ${explanation.cwd}:`);
	if (explanation.commands.length === 0) lines.push("  (none)");
	for (const command of explanation.commands) lines.push(...describe(command, explanation.cwd));
	const more = explanation.matches.filter((m) => m.rule !== explanation.rule || m.reason !== explanation.reason);
	if (more.length > 0) lines.push("also matched:", ...more.map((m) => `  ${m.rule} (${m.verdict}): ${m.reason}`));
	lines.push(VERDICT_LINE[explanation.verdict](explanation));
	const answer = source.answer;
	if (answer && (source.hooks.length > 0 || source.notApproved.length > 0 || source.failed.length > 0)) {
		const by = answer.hook ? ` by ${show(answer.hook)}` : "";
		const asked = source.kind === "project" && explanation.verdict === "ask" ? " (no terminal to ask at here)" : "";
		const unapproved = source.notApproved.length > 0 ? " (what is not approved does not run)" : "";
		const said = {
			block: `blocked${by}${asked}: ${answer.reason}`,
			// `{ask: true}`: the agent's own prompt where it has one, else a deny (docs/ask.md).
			ask: `ask${by}: ${answer.reason} (a person decides: the agent's own prompt where it has one; with nobody to ask, blocked)`,
			allow: `allowed${unapproved}`,
		}[answer.verdict];
		lines.push(`the project's hooks: ${said}`);
	}
	return lines.join("\n");
}

const SEVERITY = { allow: 0, ask: 1, block: 2 } as const;

/** Loads the hooks as `emit` does, sends them the bash call, and keeps what every guard explained meanwhile. */
async function judgeWithHooks(command: string, cwd: string, args: { hook?: unknown; discovery?: boolean; tool?: string }) {
	const [{ createHost }, { dispatch }, { claimStdout }] = await Promise.all([
		import("../host/host.ts"),
		import("../host/dispatch.ts"),
		import("../process/stdout.ts"),
	]);
	claimStdout(); // what hooks print goes to stderr; stdout is the explanation
	const heard: ShellExplanation[] = [];
	const stop = observeShellGuards((explanation) => heard.push(explanation));
	let host: Host | undefined;
	try {
		host = await createHost({ cwd, hookPaths: hookPaths(args), discovery: args.discovery !== false, interactive: false });
		const event = { type: "tool_call" as const, toolCallId: "call_explain", toolName: args.tool || "bash", input: { command } };
		const dispatched: Dispatched = await dispatch(host, event, false);
		const handling = host.hooks.filter((hook) => (hook.handlers.get("tool_call")?.length ?? 0) > 0).map((hook) => hook.resolvedPath);
		return { heard, host, dispatched, handling };
	} finally {
		stop();
		host?.close();
	}
}

/** `xcsh-hooks guard explain "<command>"`: how the project's shell guard judges a command line, and why. */
const explainCommand = defineCommand({
	meta: {
		name: "explain",
		description: "Explain how the shell guard judges a command line",
		details:
			"Show how the project's shell guard judges a command: what it sees after unwrapping and which rule decides. " +
			"Exit 2 when the command is blocked (or would be asked about), 0 when it is allowed.",
	},
	args: {
		command: { type: "positional", required: true, description: "The command line, quoted" },
		packs: { type: "string", description: "Judge with these packs instead (comma-separated)", valueHint: "list" },
		"allow-path": { type: "string", description: "Judge with these deletable paths instead (comma-separated)", valueHint: "paths" },
		tool: { type: "string", default: "bash", description: "The tool the call is for, as the hooks see it", valueHint: "name" },
		...globalArgs,
	},
	async run({ args }) {
		const names = args.packs === undefined ? undefined : String(args.packs).split(",").filter(Boolean);
		const unknown = names?.filter((name) => !Object.hasOwn(PACKS, name)) ?? [];
		if (unknown.length > 0) throw cliError(`--packs: ${unknownName("pack", unknown[0] as string, Object.keys(PACKS))}`);
		const cwd = projectDir(args.cwd);
		const command = String(args.command);
		const allowPaths = args["allow-path"] === undefined ? undefined : String(args["allow-path"]).split(",").filter(Boolean);

		let explanation: ShellExplanation;
		let source: Source;
		let others = 0;
		if (names || allowPaths) {
			const guard = createShellGuard({ ...(names ? { packs: names as PackName[] } : {}), allowPaths: allowPaths ?? [] });
			explanation = await guard.explain(command, { cwd });
			source = { kind: "options", hooks: [], notApproved: [], failed: [] };
		} else {
			const { heard, host, dispatched, handling } = await judgeWithHooks(command, cwd, args);
			const result = dispatched.result as { block?: boolean; ask?: boolean; reason?: string } | undefined;
			const by = dispatched.hookPath ? { hook: dispatched.hookPath } : {};
			const answer: NonNullable<Source["answer"]> = result?.block
				? { verdict: "block", reason: result.reason ?? "", ...by }
				: result?.ask
					? { verdict: "ask", reason: result.reason ?? "", ...by }
					: { verdict: "allow" };
			const notApproved = host.skipped.filter((s) => s.reason === "unknown").map(({ path, approve }) => ({ path, approve }));
			const strictest = heard.reduce<ShellExplanation | undefined>(
				(best, e) => (best && SEVERITY[best.verdict] >= SEVERITY[e.verdict] ? best : e),
				undefined,
			);
			others = Math.max(0, heard.length - 1);
			explanation = strictest ?? (await createShellGuard().explain(command, { cwd }));
			const failed = host.loadErrors.map(({ path, error }) => ({ path, error }));
			source = { kind: strictest ? "project" : "default", hooks: handling, notApproved, failed, answer };
		}

		if (args.json) await printJson({ ...explanation, source });
		else await writeOut(report(explanation, source, cwd, others));
		const refused = explanation.verdict !== "allow" || (source.answer !== undefined && source.answer.verdict !== "allow");
		return refused ? EXIT_BLOCKED : EXIT_OK;
	},
});

/** `xcsh-hooks guard <action>`: the shell guard, seen from the command line (one action so far: `explain`). */
export const guardCommand = defineCommand({
	meta: {
		name: "guard",
		description: "Explain what the shell guard sees in a command",
		details: 'The shell guard, seen from the command line: `guard explain "<command>"` shows what it sees and which rule decides.',
	},
	subCommands: { explain: explainCommand },
});
