import { XcshError } from "../errors.ts";
import { homedir, tmpdir } from "node:os";
import type { HookContext, ToolCallEvent, ToolCallEventResult } from "../hooks/types.ts";
import { isUnreadableCommand, unreadableCommand } from "./analysis.ts";
import { analyzeCommandLine } from "./analyze.ts";
import { resolveFrom } from "./words.ts";
import { DEFAULT_PACKS, PACKS, type PackName } from "./packs/index.ts";
import { loadShellParser } from "./parser.ts";
import { observed, report } from "./observe.ts";
import { prescanFor } from "./prescan.ts";
import type { Parser } from "web-tree-sitter";
import type {
	NestedRun,
	RuleAnswer,
	RuleContext,
	RuleMatch,
	RulePack,
	ShellCommand,
	ShellDecision,
	ShellExplanation,
	ShellGuardSummary,
	ShellRule,
	ShellVerdict,
} from "./types.ts";

/** Options of {@link createShellGuard}. */
export interface ShellGuardOptions {
	/** The packs to run, by name or as your own; default `["shell", "git", "filesystem"]`; `"all"`: every built-in pack. */
	packs?: ReadonlyArray<PackName | RulePack> | "all";
	/** Pack names or rule ids to switch off: `["git"]`, `["git/branch-force-delete"]`. */
	disable?: readonly string[];
	/** Paths (relative to the command's directory, or absolute) that may be deleted: `["build", "dist"]`. */
	allowPaths?: readonly string[];
	/** Rules of your own, run after the packs. */
	rules?: readonly ShellRule[];
	/**
	 * What a match answers instead of the rule's own verdict, by pack name or rule id (a rule id wins):
	 * `{ containers: "ask", "git/force-push": "block" }`. An ask lets a person allow the command.
	 */
	verdicts?: Readonly<Record<string, "block" | "ask">>;
	/** What to do with a command line the parser cannot read: `"block"` (default) or `"allow"`. */
	onParseError?: "block" | "allow";
	/** Longest command line analysed, in characters; longer ones are blocked. Default 100,000. */
	maxLength?: number;
	/** The tools whose `command` input the handler checks; default `["bash"]`. */
	tools?: readonly string[];
}

/** A guard: decides about command lines, and gives a `tool_call` handler that applies it. */
export interface ShellGuard {
	/**
	 * Whether `command`, run in `cwd`, is blocked, asked about or allowed, and by which rule. Never throws.
	 * A line no rule could block is cleared without a parse (its `commands` empty) unless `analyze` is set.
	 */
	decide(command: string, options?: { cwd?: string; analyze?: boolean }): Promise<ShellDecision>;
	/** {@link decide}'s decision with how it was reached: every rule that matched, the cwd, this guard's setup. */
	explain(command: string, options?: { cwd?: string }): Promise<ShellExplanation>;
	/**
	 * A `tool_call` handler: `pi.on("tool_call", guard.handler)`. A block blocks; an ask answers
	 * `{ask: true, reason}`, which the host puts to a person and blocks when they decline or nobody is there.
	 */
	handler(event: ToolCallEvent, ctx: HookContext): Promise<ToolCallEventResult | undefined>;
	/** The rules it runs, in order. */
	readonly rules: readonly ShellRule[];
	/** The packs it was given (switched-off ones included; `disable` is in `options`). */
	readonly packs: readonly RulePack[];
	/** The options it was created with. */
	readonly options: Readonly<ShellGuardOptions>;
}

/** A decision as the analysis gives it; {@link verdictOf} reads one without a verdict by `block`. */
type Judged = Omit<ShellDecision, "verdict"> & { verdict?: ShellVerdict };

const verdictOf = (decision: Judged): ShellVerdict => decision.verdict ?? (decision.block ? "block" : "allow");

/** What a rule's `test` result answers; anything but an explicit ask blocks (fail closed). */
function answerOf(rule: ShellRule, result: ReturnType<ShellRule["test"]>): { verdict: "block" | "ask"; reason: string } | undefined {
	if (!result) return undefined;
	if (typeof result === "object") {
		const answer = result as RuleAnswer;
		return { verdict: answer.verdict === "ask" ? "ask" : "block", reason: typeof answer.reason === "string" ? answer.reason : rule.reason };
	}
	return { verdict: rule.verdict === "ask" ? "ask" : "block", reason: typeof result === "string" ? result : rule.reason };
}

/** Where a nested command line runs when the command that runs it has no known directory. */
const UNKNOWN_CWD = "/\u0000unknown-cwd";
/** How many command lines packs may find inside others (aliases that call aliases…) before the guard gives up. */
const MAX_NESTED = 64;

const TEMP_ROOTS = [...new Set(["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", tmpdir().replace(/\/+$/, "")])];

/** Whether one path is the other or lies inside it (either way). */
const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** Letters from other scripts that look like Latin ones, folded for a second look at look-alike commands. */
const CONFUSABLES: Record<string, string> = {
	а: "a",
	е: "e",
	о: "o",
	р: "p",
	с: "c",
	у: "y",
	х: "x",
	і: "i",
	ѕ: "s",
	ј: "j",
	ԁ: "d",
	ɡ: "g",
	һ: "h",
	ⅼ: "l",
	м: "m",
	т: "t",
	к: "k",
	ո: "n",
	"‐": "-",
	"‑": "-",
	"‒": "-",
	"–": "-",
	"—": "-",
	"―": "-",
	"−": "-",
	"\u00a0": " ",
	"\u2007": " ",
	"\u202f": " ",
};

function fold(text: string): string {
	let out = "";
	for (const char of text.normalize("NFKC")) out += CONFUSABLES[char] ?? char;
	return out.replace(/[\u200b-\u200d\u2060\ufeff]/g, "");
}

/**
 * A destructive-command guard for shell tools: every command of the line, unwrapped
 * (`sudo`, `bash -c`, `xargs`, `find -exec`…), is judged by the rules of its packs.
 */
export function createShellGuard(options: ShellGuardOptions = {}): ShellGuard {
	const disabled = new Set(options.disable ?? []);
	const chosen = options.packs === "all" ? (Object.keys(PACKS) as PackName[]) : (options.packs ?? DEFAULT_PACKS);
	if (!Array.isArray(chosen)) throw new XcshError("GUARD_OPTIONS", `createShellGuard: packs must be a list of packs or "all"`);
	const packs = chosen.map((pack) => (typeof pack === "string" ? PACKS[pack as PackName] : pack));
	for (const pack of packs)
		if (!pack) throw new XcshError("GUARD_OPTIONS", `createShellGuard: unknown pack; packs: ${Object.keys(PACKS).join(", ")}`);
	const active = packs.filter((pack) => !disabled.has(pack.name));
	const rules = [...active.flatMap((pack) => pack.rules), ...(options.rules ?? [])].filter((rule) => !disabled.has(rule.id));
	const nesters = active.filter((pack) => typeof pack.nested === "function");
	const overrides = verdictOverrides(packs, rules, options.verdicts ?? {});
	const maxLength = options.maxLength ?? 100_000;
	// A line no rule could block needs no parse (nor the parser's load): see prescan.ts.
	const prescan = prescanFor(rules);
	const tools = options.tools ?? ["bash"];
	const home = (process.env.HOME || homedir()).replace(/\/+$/, "") || "/";

	const contextFor = (command: ShellCommand, baseCwd: string): RuleContext => {
		const allowed = (options.allowPaths ?? []).map((path) => resolveFrom(baseCwd, path, home)).filter((p): p is string => p !== undefined);
		return {
			cwd: command.cwd,
			home,
			project: baseCwd,
			resolve: (path) => resolveFrom(command.cwd, path, home),
			// Inside a temp dir, but never the project (or home) itself, wherever that lies.
			isTemp: (path) =>
				TEMP_ROOTS.some((root) => path.startsWith(`${root}/`) && path.length > root.length + 1) &&
				!related(path, baseCwd) &&
				!related(path, home),
			isAllowed: (path) => allowed.some((root) => path === root || path.startsWith(`${root.replace(/\/$/, "")}/`)),
		};
	};

	/** The commands a pack says a command runs (a git `!alias`, `rebase --exec`), analyzed like the line itself. */
	const nestedCommands = (parser: Parser, command: ShellCommand, run: NestedRun): ShellCommand[] => {
		const script = "script" in run ? run.script : run.argv.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
		const found = analyzeCommandLine(parser, script, command.cwd ?? UNKNOWN_CWD, home);
		return found.map((inner) => ({
			...inner,
			via: [...command.via, run.via, ...inner.via],
			cwd: inner.cwd === UNKNOWN_CWD || inner.cwd?.startsWith(`${UNKNOWN_CWD}/`) ? undefined : inner.cwd,
			...(command.env || inner.env ? { env: { ...command.env, ...inner.env } } : {}),
		}));
	};

	/**
	 * Block beats ask beats allow: the first block decides at once, else the first ask; `matches` hears
	 * every match. With a `parser`, the command lines packs find inside commands are added and judged too.
	 */
	const judge = (parser: Parser | undefined, commands: ShellCommand[], cwd: string, matches?: RuleMatch[]): ShellDecision => {
		let decided: ShellDecision | undefined;
		let expansions = 0;
		for (let index = 0; index < commands.length; index++) {
			const command = commands[index] as ShellCommand;
			const context = contextFor(command, cwd);
			if (parser)
				for (const pack of nesters)
					for (const run of pack.nested?.(command, context) ?? []) {
						if (++expansions > MAX_NESTED)
							throw unreadableCommand("input/too-deep", "command lines run inside others nest too deeply to check");
						commands.push(...nestedCommands(parser, command, run));
					}
			for (const rule of rules) {
				if (rule.programs && !rule.programs.includes(command.program)) continue;
				const answer = answerOf(rule, rule.test(command, context));
				if (!answer) continue;
				const verdict = overrides.get(rule) ?? answer.verdict;
				matches?.push({ rule: rule.id, verdict, reason: answer.reason, command: index });
				const decision = { block: true, verdict, reason: answer.reason, rule: rule.id, commands };
				if (verdict === "ask") decided ??= decision;
				else if (!matches) return decision;
				else if (decided?.verdict !== "block") decided = decision;
			}
		}
		return decided ?? { block: false, verdict: "allow", commands };
	};

	const analyse = async (line: string, cwd: string): Promise<Judged> => {
		const parser = await loadShellParser();
		try {
			return judge(parser, analyzeCommandLine(parser, line, cwd, home), cwd);
		} catch (error) {
			if (!isUnreadableCommand(error)) throw error;
			if (error.detail === "parse/error" && options.onParseError === "allow") return { block: false, commands: [] };
			return { block: true, reason: error.message, rule: error.detail, commands: [] };
		}
	};

	const decideLine = async (command: string, cwd: string, analyze = false): Promise<Judged> => {
		if (typeof command !== "string") return { block: true, reason: "the command is not a string", rule: "input/not-text", commands: [] };
		if (command.length > maxLength)
			return {
				block: true,
				reason: `the command is longer than ${maxLength} characters, too long to check`,
				rule: "input/too-long",
				commands: [],
			};
		if (command.includes("\0"))
			return { block: true, reason: "the command holds a NUL character, which shells cut it at", rule: "input/nul", commands: [] };
		const line = command.toWellFormed();
		if (prescan && !analyze && !prescan(line)) return { block: false, commands: [] };
		try {
			const decision = await analyse(line, cwd);
			// Look-alikes (Cyrillic letters, en dashes, no-break spaces): answer what the folded text would, when stricter.
			if (verdictOf(decision) === "block" || !/[^\x00-\x7f]/.test(line)) return decision;
			const folded = await analyse(fold(line), cwd);
			const stricter = verdictOf(folded) === "block" || (verdictOf(folded) === "ask" && verdictOf(decision) === "allow");
			return stricter && folded.rule !== "parse/error"
				? { ...folded, reason: `unicode look-alike of: ${folded.reason}`, commands: decision.commands }
				: decision;
		} catch (error) {
			return {
				block: true,
				reason: `the guard failed to check the command (${error instanceof Error ? error.message : String(error)})`,
				rule: "guard/failure",
				commands: [],
			};
		}
	};

	const summary = (): ShellGuardSummary => ({
		packs: packs.filter((pack) => !disabled.has(pack.name)).map((pack) => pack.name),
		disable: [...disabled],
		allowPaths: [...(options.allowPaths ?? [])],
		rules: (options.rules ?? []).map((rule) => rule.id),
		verdicts: { ...options.verdicts },
		tools: [...tools],
		onParseError: options.onParseError === "allow" ? "allow" : "block",
	});

	/** The decision, and how it was reached: the commands judged again, this time hearing every match. */
	const explainDecision = (line: string, cwd: string, judged: Judged): ShellExplanation => {
		const decision: ShellDecision = { ...judged, verdict: verdictOf(judged) };
		const matches: RuleMatch[] = [];
		judge(undefined, decision.commands, cwd, matches);
		// What the analyzer refused, or a look-alike's verdict, matched no rule on the commands as read.
		if (decision.rule && !matches.some((m) => m.rule === decision.rule && m.reason === decision.reason))
			matches.unshift({ rule: decision.rule, verdict: decision.verdict === "ask" ? "ask" : "block", reason: decision.reason ?? "" });
		return { ...decision, line, cwd, matches, guard: summary() };
	};

	const decide = async (command: string, at: { cwd?: string; analyze?: boolean } = {}): Promise<ShellDecision> => {
		const cwd = at.cwd ?? process.cwd();
		// Someone listening (guard explain) hears what the analyzer saw, so the line is read whole.
		const judged = await decideLine(command, cwd, at.analyze === true || observed());
		if (observed()) report(explainDecision(String(command), cwd, judged));
		return judged.verdict ? (judged as ShellDecision) : { ...judged, verdict: verdictOf(judged) };
	};

	const explain = async (command: string, at: { cwd?: string } = {}): Promise<ShellExplanation> => {
		const cwd = at.cwd ?? process.cwd();
		const explanation = explainDecision(String(command), cwd, await decideLine(command, cwd, true));
		if (observed()) report(explanation);
		return explanation;
	};

	return {
		rules,
		packs,
		options,
		decide,
		explain,
		async handler(event, ctx) {
			if (!tools.includes(event.toolName)) return undefined;
			const decision = await decide(String(event.input.command ?? ""), { cwd: ctx.cwd });
			if (decision.verdict === "allow") return undefined;
			const reason = `${decision.reason} [${decision.rule}]`;
			// The host puts an ask to a person (the agent's own prompt, or `ctx.ui.confirm`), or blocks it.
			return decision.verdict === "ask" ? { ask: true, reason } : { block: true, reason };
		},
	};
}

/** Per rule, the verdict the hook's `verdicts` give it (a rule id wins over its pack); unknown names are an error. */
function verdictOverrides(
	packs: readonly RulePack[],
	rules: readonly ShellRule[],
	verdicts: Readonly<Record<string, "block" | "ask">>,
): Map<ShellRule, "block" | "ask"> {
	const known = new Set([...packs.flatMap((pack) => [pack.name, ...pack.rules.map((rule) => rule.id)]), ...rules.map((rule) => rule.id)]);
	for (const [name, verdict] of Object.entries(verdicts)) {
		if (!known.has(name)) throw new XcshError("GUARD_OPTIONS", `createShellGuard: verdicts: no pack or rule "${name}" in this guard`);
		if (verdict !== "block" && verdict !== "ask")
			throw new XcshError(
				"GUARD_OPTIONS",
				`createShellGuard: verdicts: "${name}" must be "block" or "ask", got ${JSON.stringify(verdict)}`,
			);
	}
	const overrides = new Map<ShellRule, "block" | "ask">();
	const given = (name: string) => (Object.hasOwn(verdicts, name) ? verdicts[name] : undefined);
	for (const pack of packs)
		for (const rule of pack.rules) {
			const verdict = given(rule.id) ?? given(pack.name);
			if (verdict) overrides.set(rule, verdict);
		}
	for (const rule of rules) {
		const verdict = given(rule.id);
		if (verdict) overrides.set(rule, verdict);
	}
	return overrides;
}
