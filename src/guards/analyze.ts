/**
 * From a command line to the simple commands that will run: every command of lists, pipelines,
 * subshells, compound statements, functions and command or process substitutions, with what runs
 * code unwrapped (`sudo`, `env`, `bash -c`, `eval`, `xargs`, `find -exec`, one-liners, a script piped
 * or fed into a shell). Arguments are read the way the shell reads them (quotes removed, escapes
 * applied), so data stays data: `echo 'rm -rf /'` is `echo` with one argument.
 */
import type { Node, Parser } from "web-tree-sitter";
import { interpreterOf, oneLinerCode, scanCode } from "./interpreters.ts";
import type { EnvValue, ShellCommand } from "./types.ts";
import { unwrap } from "./wrappers.ts";
import { decodeAnsiC, programName, resolveFrom, unescapeDouble } from "./words.ts";

/** Why the analyzer refused a command line: a rule id (`parse/error`, `input/too-deep`) and one line. */
export class AnalysisError extends Error {
	constructor(
		readonly rule: string,
		message: string,
	) {
		super(message);
	}
}

/** How deep the syntax tree may nest, and how many scripts inside scripts (`bash -c "eval '…'"`). */
const MAX_TREE_DEPTH = 300;
const MAX_SCRIPT_DEPTH = 12;
const MAX_COMMANDS = 2_000;

interface Word {
	text: string;
	computed: boolean;
}

/** What flows into a command: its wrappers, its standard input, the directory it runs in. */
interface Scope {
	via: string[];
	stdin?: string | undefined;
	stdinUnknown: boolean;
	/** Mutable: `cd` in a list changes it for what follows, inside this scope only. */
	dir: { cwd: string | undefined };
	/** Mutable like `dir`: variables set by `A=1` or `export A=1`, for the commands that follow. */
	env: { vars: Record<string, EnvValue> };
	home: string;
	scripts: number;
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"]);

/** A scope for a subshell or a pipeline stage: its own directory and variables, changed there only. */
const fork = (scope: Scope, extra: Partial<Scope>): Scope => ({
	...scope,
	dir: { ...scope.dir },
	env: { vars: { ...scope.env.vars } },
	...extra,
});

/** Analyzes one command line; throws {@link AnalysisError} for what it cannot read. */
export function analyzeCommandLine(parser: Parser, source: string, cwd: string, home: string): ShellCommand[] {
	const analyzer = new Analyzer(parser);
	analyzer.script(source, { via: [], stdinUnknown: false, dir: { cwd }, env: { vars: {} }, home, scripts: 0 });
	return analyzer.commands;
}

/** The first error in a tree, as a one-line description with where it is. */
function describeError(root: Node, source: string): string {
	const stack: Node[] = [root];
	while (stack.length > 0) {
		const node = stack.pop() as Node;
		if (node.type === "ERROR" || node.isMissing) {
			const at = node.startIndex;
			const near = source.slice(Math.max(0, at - 10), at + 10).replace(/\s+/g, " ");
			return node.isMissing ? `missing ${node.type} near "${near}"` : `unexpected text near "${near}"`;
		}
		if (node.hasError) for (let i = node.childCount - 1; i >= 0; i--) stack.push(node.child(i) as Node);
	}
	return "a syntax error";
}

class Analyzer {
	readonly commands: ShellCommand[] = [];

	constructor(private readonly parser: Parser) {}

	/** Parses and walks a script: the command line itself, or one it runs (`bash -c`, `eval`, a piped script). */
	script(source: string, scope: Scope): void {
		if (scope.scripts > MAX_SCRIPT_DEPTH) throw new AnalysisError("input/too-deep", "scripts nested too deeply to check");
		const tree = this.parser.parse(source);
		if (!tree) throw new AnalysisError("parse/error", "the shell parser gave up on this command");
		try {
			if (tree.rootNode.hasError)
				throw new AnalysisError(
					"parse/error",
					`cannot parse ${scope.scripts > 0 ? "a script it runs" : "the command"} (${describeError(tree.rootNode, source)}), so it cannot be checked`,
				);
			this.walk(tree.rootNode, { ...scope, scripts: scope.scripts + 1, env: { vars: { ...scope.env.vars } } }, 0);
		} finally {
			tree.delete();
		}
	}

	private walk(node: Node, scope: Scope, depth: number): void {
		if (depth > MAX_TREE_DEPTH) throw new AnalysisError("input/too-deep", "the command nests too deeply to check");
		switch (node.type) {
			case "command":
				this.command(node, scope, depth, undefined, []);
				return;
			case "redirected_statement":
				this.redirected(node, scope, depth);
				return;
			case "pipeline":
				this.pipeline(node.namedChildren, scope, depth, undefined);
				return;
			case "subshell":
			case "command_substitution":
			case "process_substitution":
				this.children(node, fork(scope, { stdin: undefined, stdinUnknown: false }), depth);
				return;
			case "variable_assignment":
			case "variable_assignments":
			case "declaration_command":
				this.assign(node, scope, depth);
				return;
			case "comment":
				return;
			default:
				this.children(node, scope, depth);
				return;
		}
	}

	private children(node: Node, scope: Scope, depth: number): void {
		for (const child of node.namedChildren) if (child) this.walk(child, scope, depth + 1);
	}

	/** A pipeline: each stage reads what the one before prints, when that is known (`echo …`, `cat <<EOF`). */
	private pipeline(stages: Array<Node | null>, scope: Scope, depth: number, firstInput: string | undefined): void {
		let input: { text?: string | undefined; unknown: boolean } =
			firstInput === undefined ? { text: scope.stdin, unknown: scope.stdinUnknown } : { text: firstInput, unknown: false };
		for (const stage of stages) {
			if (!stage) continue;
			this.walk(stage, fork(scope, { stdin: input.text, stdinUnknown: input.unknown }), depth + 1);
			const printed = this.printed(stage);
			input = printed === undefined ? { unknown: true } : { text: printed, unknown: false };
		}
	}

	/** What a stage prints when that is plain from the text: `echo`/`printf` of static words, `cat` of a heredoc. */
	private printed(stage: Node): string | undefined {
		let body = stage;
		let heredoc: string | undefined;
		if (stage.type === "redirected_statement") {
			body = stage.childForFieldName("body") ?? stage;
			for (const child of stage.namedChildren)
				if (child?.type === "heredoc_redirect") heredoc = child.namedChildren.find((c) => c?.type === "heredoc_body")?.text ?? "";
				else if (child?.type === "herestring_redirect") heredoc = `${this.wordOf(child.namedChildren[0], null).text}\n`;
		}
		if (body.type !== "command") return undefined;
		const words = body.namedChildren.filter((c) => c && c.type !== "variable_assignment" && !c.type.endsWith("_redirect")) as Node[];
		const argv = words.map((w) => this.wordOf(w.type === "command_name" ? w.namedChildren[0] : w, null));
		if (argv.length === 0 || argv.some((w) => w.computed)) return undefined;
		const [name, ...args] = argv.map((w) => w.text);
		if (name === "cat" && args.length === 0) return heredoc;
		if (name === "echo") {
			while (args[0] && /^-[neE]+$/.test(args[0])) args.shift();
			return `${args.join(" ")}\n`;
		}
		if (name === "printf" && args.length > 0) {
			const [format, ...rest] = args as [string, ...string[]];
			return decodeAnsiC(format.replace(/%[sbd]/g, () => rest.shift() ?? "")) + rest.join(" ");
		}
		return undefined;
	}

	/** A statement with redirections: heredocs and here-strings become its standard input. */
	private redirected(node: Node, scope: Scope, depth: number): void {
		let stdin: string | undefined;
		const redirects: ShellCommand["redirects"] = [];
		const later: Array<{ node: Node; piped: boolean }> = [];
		const body = node.childForFieldName("body");
		for (const child of node.namedChildren) {
			if (!child || child.id === body?.id) continue;
			if (child.type === "heredoc_redirect") {
				let op = "";
				for (const part of child.children) {
					if (!part) continue;
					if (!part.isNamed) op = part.text;
					else if (part.type === "heredoc_body") {
						stdin = part.text;
						this.children(part, scope, depth + 1); // `$(…)` in an unquoted heredoc runs
					} else if (part.type !== "heredoc_start" && part.type !== "heredoc_end") {
						const lead = part.type === "pipeline" ? part.child(0) : null;
						const piped = op === "|" || op === "|&" || (lead !== null && !lead.isNamed && /^\|&?$/.test(lead.text));
						later.push({ node: part, piped });
					}
				}
			} else if (child.type === "herestring_redirect") stdin = `${this.wordOf(child.namedChildren[0], scope, depth).text}\n`;
			else if (child.type === "file_redirect") redirects.push(this.redirect(child, scope, depth));
			else this.walk(child, scope, depth + 1);
		}
		if (body?.type === "command") this.command(body, scope, depth, stdin, redirects);
		else if (body) {
			// `a && b > /dev/sda`, `{ a; b; } > f`: the redirection reaches commands of the body (each, to err on the safe side).
			const before = this.commands.length;
			this.walk(body, stdin === undefined ? scope : { ...scope, stdin, stdinUnknown: false }, depth + 1);
			if (redirects.length > 0) for (const inner of this.commands.slice(before)) inner.redirects = [...inner.redirects, ...redirects];
		}
		for (const { node: next, piped } of later) {
			if (!piped) this.walk(next, scope, depth + 1);
			else this.pipeline(next.type === "pipeline" ? next.namedChildren : [next], scope, depth, this.printed(node) ?? "");
		}
	}

	private redirect(node: Node, scope: Scope, depth: number): { op: string; target: string } {
		const op = node.children.find((c) => c && !c.isNamed)?.text ?? ">";
		const target = node.namedChildren.filter((c) => c && c.type !== "file_descriptor").at(-1);
		return { op, target: this.wordOf(target ?? null, scope, depth).text };
	}

	/** A simple command: its words read as the shell would, then unwrapped. */
	private command(node: Node, scope: Scope, depth: number, stdin: string | undefined, redirects: ShellCommand["redirects"]): void {
		const words: Word[] = [];
		const prefix: Record<string, EnvValue> = {};
		for (const child of node.namedChildren) {
			if (!child) continue;
			if (child.type === "variable_assignment") this.assignment(child, scope, depth, prefix);
			else if (child.type === "herestring_redirect") stdin = `${this.wordOf(child.namedChildren[0], scope, depth).text}\n`;
			else if (child.type === "file_redirect") redirects.push(this.redirect(child, scope, depth));
			else if (child.type === "command_name") words.push(this.wordOf(child.namedChildren[0] ?? child, scope, depth));
			else words.push(this.wordOf(child, scope, depth));
		}
		if (words.length === 0) return;
		const withStdin = stdin === undefined ? scope : { ...scope, stdin, stdinUnknown: false };
		const own = Object.keys(prefix).length === 0 ? withStdin : { ...withStdin, env: { vars: { ...scope.env.vars, ...prefix } } };
		this.run(
			words.map((w) => w.text),
			words.map((w) => w.computed),
			own,
			redirects,
		);
	}

	/** Unwraps and records one command (argv), following what it runs. */
	run(argv: string[], computed: boolean[], scope: Scope, redirects: ShellCommand["redirects"] = []): void {
		const via = [...scope.via];
		let env = scope.env.vars;
		for (let rounds = 0; rounds < 32 && argv.length > 0; rounds++) {
			const computedProgram = computed[0] === true;
			const program = computedProgram ? (argv[0] as string) : programName(argv[0] as string);
			const args = argv.slice(1);
			const argsComputed = computed.slice(1);
			const record = (extra: Partial<ShellCommand> = {}) => {
				if (this.commands.length >= MAX_COMMANDS) throw new AnalysisError("input/too-many", "too many commands to check");
				this.commands.push({
					program,
					args,
					computed: argsComputed,
					computedProgram,
					via,
					stdin: scope.stdin,
					stdinUnknown: scope.stdinUnknown,
					redirects,
					cwd: scope.dir.cwd,
					...(Object.keys(env).length > 0 ? { env } : {}),
					...extra,
				});
			};
			if (computedProgram) {
				record();
				return;
			}
			const inner = { ...scope, via };
			if (program === "cd") {
				record();
				const target = args.filter((a) => a !== "-P" && a !== "-L")[0];
				scope.dir.cwd =
					target === undefined
						? scope.home
						: argsComputed[args.indexOf(target)] || target === "-"
							? undefined
							: resolveFrom(scope.dir.cwd, target, scope.home);
				return;
			}
			if (SHELLS.has(program)) {
				this.shell(program, args, inner, record);
				return;
			}
			if (program === "eval") {
				record();
				this.script(args.join(" "), { ...inner, via: [...via, "eval"] });
				return;
			}
			const language = interpreterOf(program);
			if (language) {
				const code = oneLinerCode(language, args, scope.stdin);
				if (code === undefined) {
					record();
					return;
				}
				const { deletes, shells } = scanCode(language, code);
				record({ deletes });
				for (const line of shells) this.script(line, { ...inner, via: [...via, `${program} code`], stdin: undefined, stdinUnknown: false });
				return;
			}
			const step = unwrap(program, args, argsComputed);
			if (!step) {
				record();
				return;
			}
			if (step.kind === "script") {
				record();
				this.script(step.script, { ...inner, via: [...via, step.via] });
				return;
			}
			if (step.kind === "commands") {
				record();
				for (const next of step.commands) this.run(next.argv, next.computed, { ...inner, via: [...via, step.via], dir: { ...scope.dir } });
				return;
			}
			via.push(step.via);
			// `env A=1 cmd`, `sudo A=1 cmd`: the assignments before the command are its environment.
			const before = args.slice(0, Math.max(0, args.length - step.argv.length));
			for (const [at, word] of before.entries()) {
				const eq = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(word);
				if (eq) env = { ...env, [eq[1] as string]: { value: word.slice(eq[0].length), computed: argsComputed[at] === true } };
			}
			argv = step.argv;
			computed = step.computed;
		}
	}

	/** `bash -c '…'`, `sh -s <<EOF`, `curl … | sh`: the script a shell runs, when it can be known. */
	private shell(program: string, args: string[], scope: Scope, record: (extra?: Partial<ShellCommand>) => void): void {
		const via = [...scope.via, `${program} -c`];
		if (program === "busybox" && args[0] !== "sh" && args[0] !== "ash") {
			this.run(
				args,
				args.map(() => false),
				scope,
			);
			return;
		}
		const rest = program === "busybox" ? args.slice(1) : args;
		let command = false;
		for (let i = 0; i < rest.length; i++) {
			const arg = rest[i] as string;
			if (arg === "--") {
				if (command) {
					record();
					this.script(rest[i + 1] ?? "", { ...scope, via });
					return;
				}
				break;
			}
			if (/^[-+]o$/.test(arg) || arg === "--rcfile" || arg === "--init-file") {
				i++;
				continue;
			}
			if (/^[-+][A-Za-z]+$/.test(arg)) {
				if (arg.startsWith("-") && arg.includes("c")) command = true;
				continue;
			}
			if (arg.startsWith("--")) continue;
			record();
			// `bash -c SCRIPT`, or `bash FILE` (a script we cannot see, which rules may still judge by name).
			if (command) {
				this.script(arg, { ...scope, via, stdin: undefined, stdinUnknown: false });
				return;
			}
			return;
		}
		if (command) {
			record();
			return;
		}
		// No script named: the shell reads one from its standard input.
		if (scope.stdin !== undefined) {
			record();
			this.script(scope.stdin, { ...scope, via: [...scope.via, `${program} (stdin)`], stdin: undefined, stdinUnknown: false });
			return;
		}
		record();
	}

	/** `A=1`, `export A=1 B=2`, `declare -x A=1`: set for what follows in this shell. */
	private assign(node: Node, scope: Scope, depth: number): void {
		for (const child of node.type === "variable_assignment" ? [node] : node.namedChildren)
			if (child?.type === "variable_assignment") this.assignment(child, scope, depth, scope.env.vars);
			else if (child) this.walk(child, scope, depth + 1);
	}

	/** One `NAME=value`, recorded in `into` (what runs in its value is walked). */
	private assignment(node: Node, scope: Scope, depth: number, into: Record<string, EnvValue>): void {
		this.children(node, scope, depth + 1);
		const name = node.childForFieldName("name")?.text;
		const value = this.wordOf(node.childForFieldName("value"), null);
		if (name) into[name] = { value: value.text, computed: value.computed };
	}

	/** A word as the shell reads it: quotes removed, escapes applied; expansions kept as written, marked computed. */
	wordOf(node: Node | null | undefined, scope: Scope | null, depth = 0): Word {
		if (!node) return { text: "", computed: false };
		switch (node.type) {
			case "word":
				return { text: node.text.replace(/\\(.)/gs, (_, c: string) => (c === "\n" ? "" : c)), computed: false };
			case "raw_string":
				return { text: node.text.slice(1, -1), computed: false };
			case "ansi_c_string":
				return { text: decodeAnsiC(node.text.slice(2, -1)), computed: false };
			case "number":
			case "heredoc_start":
				return { text: node.text, computed: false };
			case "string":
			case "translated_string":
			case "concatenation": {
				let text = "";
				let computed = false;
				for (const part of node.namedChildren) {
					if (!part) continue;
					if (part.type === "string_content") text += unescapeDouble(part.text);
					else {
						const inner = this.wordOf(part, scope, depth + 1);
						text += inner.text;
						computed ||= inner.computed;
					}
				}
				return { text, computed };
			}
			case "command_substitution":
			case "process_substitution":
				if (scope) this.walk(node, scope, depth + 1);
				return { text: node.text, computed: true };
			default:
				if (scope) this.children(node, scope, depth + 1);
				return { text: node.text, computed: true };
		}
	}
}
