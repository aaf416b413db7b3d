/** docs/performance.md, regenerated from one run (`bun run bench -- --markdown` writes it). */
import type { Report } from "./report.ts";

/** What the section says about the run it was generated from. */
export interface RunInfo {
	/** `machine()` of scripts/bench.ts: CPU, cores, memory, OS, Bun. */
	machine: string;
	/** When the run started (UTC, `YYYY-MM-DD HH:MM`). */
	when: string;
	/** The sections that ran (`--only`). */
	sections: readonly string[];
}

const USAGE = `\`\`\`console
bun run bench                 # every measurement, each budget as met / MISSED, a summary line
bun run bench -- --check      # the same; exits 1 when a budget is missed or could not be measured
bun run bench -- --markdown   # the same, and this page rewritten from the run
bun run bench -- --only agents,http   # some sections: dispatch, exec, discovery, executable, agents, entry, http, guard, pi
\`\`\``;

const METHOD = `Dispatch numbers are medians of interleaved rounds (candidates alternate so load changes hit all
of them; 15 rounds, 45 with \`--check\`, each budget with its spread). Cold starts run every command once
per round, 40 rounds (120 with \`--check\`), in a rotating order, with the payload on a stdin pipe; each ratio is the median of the per-round ratios, so a noisy
moment hits both sides of it, and each budget shows how those ratios spread (quartiles, extremes). The
per-call budgets name the one-file \`bun guard.ts\` of the same rounds, the floor any Bun program pays.
\`serve --http\` is timed from the client's \`fetch\` to the end of the answer, in three blocks of requests;
its p99 budget is the blocks' median p99. The bench builds \`dist/xcsh-hooks\` first when it is missing
or older than its sources. Every program a run starts (the executable, the trivial one, the floor client) is a
fresh copy, written out and dropped from the page cache before the warm-up rounds, and the interpreters
(Bun, Node, Python) are dropped and read back the same way: how the kernel happened to hold a file's pages
moved a trivial program's start-up by 25–40% between runs, on one side of a ratio only.`;

const START_UP = `Where an agent call goes. With \`serve --socket\` running, \`bridge claude\` reads stdin
(≈ 0.5 ms, overlapped with connecting), sends it to the server, which answers from hooks already
loaded (≈ 0.5–1 ms between calls, ≈ 0.13 ms in a tight loop), and exits: about what the one-file
\`bun guard.ts\` costs (its budget: 1.2× that script, same rounds). Without a server each call loads settings, discovery and its hooks itself; its
budget is 2.0× the same script, and the breakdown above shows where it goes (measured in the compiled executable, each
figure Bun's own cost of the API, not of our code):

- Bun itself: a trivial compiled program runs its first statement ≈ 2–3.5 ms after spawn and is gone
  ≈ 3–4 ms later.
- A plain bridge call (the command line \`install\` writes) that no server answered loads only the bridge's
  own modules (\`src/cli/bridge-call.ts\`), not the CLI's argument parser, command table and version
  module: ≈ 0.3 ms of phases, ≈ 0.9 ms of a whole call on a quiet machine (15.6 → 14.7 ms, same rounds).
- Looking for a server costs a call without one ≈ 1.1–1.3 ms (stdin is read ahead with Bun's reader and
  handed over, the socket's folder is checked).
- The bridge's code is ≈ 55 small bytecode chunks: ≈ 2 ms to load. Built from a bridge-only entry the same
  code loads ≈ 0.5 ms faster as fewer chunks; one unsplit file is much worse (first statement at ≈ 10 ms),
  and so is no bytecode (≈ 2× slower).
- The first \`node:\` builtin costs ≈ 0.5 ms and \`node:fs\` ≈ 0.6 ms more. \`bun:ffi\` (claiming fd 1 for the
  protocol) ≈ 0.4 ms.
- After stdin: payload parse, mapping, project directory and host set-up ≈ 0.2 ms each, settings ≈ 0.4 ms,
  discovery (eight providers, both levels) ≈ 1.1 ms.
- The first TypeScript file imported from disk costs ≈ 1.3 ms (resolver and transpiler start-up, the
  directory walk above it), each further hook ≈ 0.03–0.3 ms.
- The floor of a served call (the two "floor" rows): a minimal Bun client of the same protocol (read stdin,
  connect, request, \`go\`, print the answer) costs ≈ 1.1–1.4× trivial against a server that runs nothing
  and ≈ 1.1–1.5× against \`serve --socket\` with 10 hooks (the server's share 0–0.5 ms from run to run);
  \`bridge claude\` adds ≈ 0.5–1 ms of its own over that client — the socket's ownership stats, the signal
  listeners installed before the answer is in (≈ 0.1–0.2 ms), the checks of each reply. Tried and not kept (no faster, same
  rounds): a greeting on connect so that the request itself confirms the call (one round trip fewer: the
  trip costs ≈ 0.1 ms, each side's CPU is the cost); connecting while the stats run; one state machine
  instead of a promise per reply. \`node:fs\` costs any process ≈ 2 ms to load (a trivial program 5.5 →
  7.5 ms), which is why the served client never loads it and why the cold call pays it.
- Tried: caching each hook as a CommonJS bundle evaluated with \`new Function\` (3.0 ms for 10 hooks,
  against 1.65 ms for \`import()\`: slower); one cached ESM bundle of all hooks (0.85 ms: 0.8 ms saved,
  not adopted yet — one hook's top-level throw would fail all, and stacks would name the cache file).
`;

const NOTES = `Notes on reading the numbers:

- "agent calls" is what a Claude Code user pays per hook call: \`bridge claude\` started by Claude for
  each PreToolUse, with the hooks discovered in \`~/.xcsh/agent/hooks\` (or approved project hooks),
  against the same one-line guard as a Node, Python and one-file Bun script. The breakdown below it
  comes from \`XCSH_HOOKS_PROFILE=1\`, which makes the CLI print its phase timings on stderr.
- \`serve --http\` pays the start-up once: Claude posts each hook call to the running server.
  \`serve --socket\` does the same for every agent's command hooks: one small process per call.
- "pi" is one tool call through the extension \`install pi\` writes, timed inside Node from the handler's
  start to its answer (a process per call; no budget: a model turn takes far longer).
- The bench works in \`node_modules/.cache/xcsh-hooks-bench\`, not in the system temp dir: Bun lists
  every directory above the working directory and above the first imported hook once per process,
  and a \`/tmp\` holding thousands of entries adds the same milliseconds to both sides of a ratio.`;

/** What the page says about itself. */
const ABOUT = `Every figure on this page comes from one run of \`bun run bench -- --markdown\`, which rewrote the page
(run it on a quiet machine; \`--only\` sections print the page instead of writing it). The budgets are
those of [the behaviour contract](contract.md#performance-budgets).`;

/** The whole page, from its title to the notes. */
export function performanceSection(report: Report, run: RunInfo): string {
	const measured = report.budgets.filter((b) => !Number.isNaN(b.ratio));
	const met = measured.filter((b) => b.ratio <= b.target).length;
	const missed = report.budgets.filter((b) => !Number.isNaN(b.ratio) && b.ratio > b.target).map((b) => b.name);
	const only = run.sections.length < 6 ? ` (sections: ${run.sections.join(", ")})` : "";
	const status = `${met} of ${report.budgets.length} budgets met${missed.length ? `; missed: ${missed.join("; ")}` : ""}.`;
	return [
		"# Performance",
		"",
		ABOUT,
		"",
		USAGE,
		"",
		`One run of \`bun run bench\`${only} on ${run.machine}, ${run.when} UTC: ${status}`,
		METHOD,
		"",
		report.markdown(),
		"",
		START_UP,
		NOTES,
	].join("\n");
}
