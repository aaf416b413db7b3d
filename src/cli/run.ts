import { HookToolWrapper, ToolBlockedError } from "../hooks/tool-wrapper.ts";
import { errorMessage } from "../hooks/_describe.ts";
import { logDecision } from "../decisions/write.ts";
import { loadErrorReason } from "../decisions/decide.ts";
import { watchStrayErrors } from "../process/exit-guard.ts";
import { claimStdout } from "../process/stdout.ts";
import { onInterrupt } from "./_interrupt.ts";
import { BUILTIN_TOOL_NAMES, createBuiltinTools, validateToolInput } from "../tools/index.ts";
import {
	cliError,
	EXIT_BLOCKED,
	EXIT_OK,
	EXIT_USAGE,
	globalArgs,
	hookPaths,
	parseJson,
	printJson,
	projectDir,
	readStdin,
	writeErr,
	writeOut,
	defineCommand,
} from "./_shared.ts";
import { createHost, describeSkips } from "../host/host.ts";
import { unknownName } from "../suggest.ts";

export const runToolCommand = defineCommand({
	meta: {
		name: "run",
		description: "Run a built-in tool (bash, read, write, edit) through the hooks",
		details: "Run a built-in tool (bash, read, write, edit) through the hooks and print its result",
	},
	args: {
		tool: { type: "positional", description: `Tool name: ${BUILTIN_TOOL_NAMES.join(", ")}` },
		input: { type: "string", description: 'Tool input JSON, e.g. \'{"command":"ls"}\' (default: stdin)', valueHint: "json" },
		"allow-load-errors": { type: "boolean", description: "Run even when a hook failed to load" },
		session: { type: "string", description: "Session JSONL file for sendMessage/appendEntry", valueHint: "file" },
		...globalArgs,
	},
	async run({ args }) {
		const name = args.tool as string;
		if (!(BUILTIN_TOOL_NAMES as readonly string[]).includes(name)) throw cliError(unknownName("tool", name, BUILTIN_TOOL_NAMES));
		const text = args.input ?? readStdin();
		if (text === undefined) throw cliError(`no input given: pass --input '<json>' or pipe it on stdin`);
		const cwd = projectDir(args.cwd);
		const tool = createBuiltinTools(cwd)[name as (typeof BUILTIN_TOOL_NAMES)[number]];
		const checked = validateToolInput(tool, parseJson(text, args.input === undefined ? "stdin" : "--input"));
		if (!checked.ok) throw cliError(`invalid input: ${checked.errors.join("; ")}`);

		if (args.json) claimStdout(); // machine-read: only the JSON on stdout
		const host = await createHost({ cwd, hookPaths: hookPaths(args), discovery: args.discovery, sessionFile: args.session });
		try {
			for (const line of describeSkips(host)) await writeErr(line);
			if (host.loadErrors.length > 0 && !args["allow-load-errors"]) {
				const reason = loadErrorReason(host.loadErrors);
				logDecision(host, {
					agent: "cli",
					session: args.session,
					event: "tool_call",
					tool: name,
					decision: "deny",
					reason,
					hook: host.loadErrors[0]?.path,
				});
				await writeErr(`blocked: ${reason}`);
				return EXIT_BLOCKED;
			}
			// The wrapper throws a ToolBlockedError for a block, rethrows a failing hook's own error (also
			// before the tool runs) and a failing tool's error (after): whether the tool started tells the last two apart.
			let started = false;
			const decidedAt = performance.now();
			const log = (decision: "allow" | "deny" | "rewrite", reason?: string) =>
				logDecision(host, {
					agent: "cli",
					session: args.session,
					event: "tool_call",
					tool: name,
					decision,
					reason,
					durationMs: Math.round(performance.now() - decidedAt),
				});
			// A hook's uncaught error while the call was being decided blocks it, as in `emit` (fail closed).
			const strayReason = watchStrayErrors();
			// Every signal that would end the process (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1…) aborts the
			// tool, which kills its whole process group, and ends the command with 128 + n; one that came
			// while the hooks decided keeps the tool from starting at all.
			const interrupt = onInterrupt();
			const tracked = {
				...tool,
				execute: async (...a: Parameters<typeof tool.execute>) => {
					const stray = await strayReason();
					if (stray !== undefined) throw new ToolBlockedError(stray);
					if (interrupt.signal.aborted) throw new ToolBlockedError(errorMessage(interrupt.signal.reason));
					started = true;
					log(a[1] !== checked.value ? "rewrite" : "allow"); // the wrapper passes a new object only when a hook replaced it
					return tool.execute(...a);
				},
			};
			let result: Awaited<ReturnType<typeof tool.execute>>;
			const execution = new HookToolWrapper(tracked, host.runner).execute(
				`run_${crypto.randomUUID().slice(0, 8)}`,
				checked.value,
				interrupt.signal,
			);
			execution.catch(() => {}); // awaited below, unless a signal ends the command first
			// A signal while the hooks still decide ends the command now: the tool will not start, and
			// nothing waits for a hook that may never settle.
			const beforeStart = new Promise<"interrupted">((resolve) =>
				interrupt.signal.addEventListener("abort", () => !started && resolve("interrupted"), { once: true }),
			);
			try {
				const first = await Promise.race([execution, beforeStart]);
				if (first === "interrupted") throw interrupt.signal.reason;
				result = first;
			} catch (error) {
				if (interrupt.code !== undefined) {
					const why = errorMessage(interrupt.signal.reason);
					if (!started) log("deny", why);
					await writeErr(
						started
							? `${name}: ${why}; the command and its process group were stopped`
							: `${name}: ${why} before the hooks decided; the tool did not run`,
					);
					return interrupt.code;
				}
				const blocked = error instanceof ToolBlockedError || !started;
				const message = errorMessage(error);
				if (blocked) log("deny", message);
				if (args.json) await printJson({ blocked, error: message, errors: host.errors });
				await writeErr(blocked ? `blocked: ${message}` : `${name} failed: ${message}`);
				return blocked ? EXIT_BLOCKED : EXIT_USAGE;
			} finally {
				interrupt.dispose();
			}
			if (interrupt.code !== undefined) return interrupt.code;
			if (args.json) await printJson({ content: result.content, details: result.details ?? null, errors: host.errors });
			else await writeOut(result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n"));
			for (const e of host.errors) await writeErr(`hook error (${e.event}) ${e.hookPath}: ${e.error}`);
			return EXIT_OK;
		} finally {
			host.close();
		}
	},
});
