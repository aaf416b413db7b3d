/** The README's "Performance" section, regenerated from one run (`bun run bench -- --markdown`). */
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

const USAGE = `\`\`\`sh
bun run bench                 # every measurement, each budget as met / MISSED, a summary line
bun run bench -- --check      # the same; exits 1 when a budget is missed or could not be measured
bun run bench -- --markdown   # the same, plus this section regenerated from the run
bun run bench -- --only agents,http   # some sections: dispatch, exec, discovery, executable, agents, http, guard, pi
\`\`\``;

const METHOD = `Dispatch numbers are medians of interleaved rounds (candidates alternate so load changes hit all
of them). Cold starts run every command once per round, 40 rounds, in a rotating order, with the
payload on a stdin pipe; each ratio is the median of the per-round ratios, so a noisy moment hits
both sides of it. The bench builds \`dist/xcsh-hooks\` first when it is missing or older than its
sources. \`serve --http\` is timed from the client's \`fetch\` to the end of the answer.`;

const START_UP = `Where an agent call goes. With \`serve --socket\` running, \`bridge claude\` reads stdin
(≈ 0.5 ms, overlapped with connecting), sends it to the server, which answers from hooks already
loaded (≈ 0.5–1 ms between calls, ≈ 0.13 ms in a tight loop), and exits: about what the one-file
\`bun guard.ts\` costs, and the SPEC's 1.5× budget is judged on this row (it sits at the budget on a
busy 2-core machine: 1.49–1.67× across a day's runs, the bare script 1.41–1.50× in the same runs). Without a
server each call loads settings, discovery and its hooks itself; 1.5× is out of reach there, so that
row has a regression gate (≤ 3.5×) and the breakdown below shows why (measured in the compiled
executable, each figure Bun's own cost of the API, not of our code):

- Bun itself: a trivial compiled program runs its first statement ≈ 2–3.5 ms after spawn and is gone
  ≈ 3–4 ms later; the 1.5× agent-call budget leaves ≈ 2.5–3.5 ms for everything else.
- The first \`node:\` builtin costs ≈ 0.5 ms and \`node:fs\` ≈ 0.6 ms more; almost every module on the
  bridge path uses \`node:fs\`. \`bun:ffi\` (claiming fd 1 for the protocol) ≈ 0.4 ms.
- The bridge's code is ≈ 30 bytecode chunks (≈ 110 KB): ≈ 1.9 ms to load. One unsplit file is
  worse (first statement at ≈ 10 ms), and so is no bytecode (≈ 2× slower).
- Discovery: a \`Bun.Glob\` scan costs ≈ 0.15 ms per folder, so folders are now read with one \`readdir\`
  and names matched with \`Bun.Glob\`; eight providers read their folders and config files at both levels.
- The first TypeScript file imported from disk costs ≈ 0.8 ms (resolver and transpiler start-up, the
  directory walk above it), each further hook ≈ 0.1 ms.
- Looking for a server costs a call without one ≈ 0.5 ms (stdin is read ahead and handed over).
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

/** The whole section, from `## Performance` to the notes. */
export function performanceSection(report: Report, run: RunInfo): string {
	const measured = report.budgets.filter((b) => !Number.isNaN(b.ratio));
	const met = measured.filter((b) => b.ratio <= b.target).length;
	const missed = report.budgets.filter((b) => !Number.isNaN(b.ratio) && b.ratio > b.target).map((b) => b.name);
	const only = run.sections.length < 6 ? ` (sections: ${run.sections.join(", ")})` : "";
	const status = `${met} of ${report.budgets.length} budgets met${missed.length ? `; missed: ${missed.join("; ")}` : ""}.`;
	return [
		"## Performance",
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
