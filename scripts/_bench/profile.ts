/**
 * Where a cold start goes: runs the command with `XCSH_HOOKS_PROFILE=1` (src/profile.ts prints
 * `xcsh-hooks-profile {"marks": [[phase, ms since start], …]}` on stderr at exit), interleaved with a
 * trivial executable that reports when its first statement ran, and gives the median of each phase.
 */
import { trivialExecutable } from "./binary.ts";
import { median } from "./micro.ts";
import { type Command, runOnce } from "./processes.ts";
import { formatNs } from "./report.ts";

const PREFIX = "xcsh-hooks-profile ";

/** What each mark ends, in words (marks not listed are shown by name). */
const PHASES: Record<string, string> = {
	"first-module": "Bun start-up + loading the entry chunk",
	entry: "start guard",
	"no-server": "looked for serve --socket (none answered)",
	modules: "bridge call modules loaded (CLI modules for other commands)",
	forwarded: "stdin read, socket checked, sent to serve --socket, confirmed",
	answered: "answered by serve --socket",
	command: "bridge command chunk loaded, args parsed",
	"stdout+agent": "stdout claimed, claude module loaded",
	stdin: "stdin read",
	project: "host set up, project found (climbed to its root)",
	settings: "settings read",
	discovery: "discovery scanned",
	trust: "trust verdicts",
	imports: "hook modules loaded",
	factories: "hook factories run",
	host: "runner wired",
	"session+skips": "session file checked",
	dispatched: "payload mapped, tool_call dispatched",
	"decision-log": "decision log appended",
	answer: "answer written",
	exit: "profile flushed",
};

type Marks = Array<[string, number]>;

function parseMarks(stderr: string): Marks | undefined {
	const line = stderr.split("\n").find((l) => l.startsWith(PREFIX));
	if (!line) return undefined;
	return (JSON.parse(line.slice(PREFIX.length)) as { marks: Marks }).marks;
}

const ms = (value: number) => formatNs(value * 1e6).padStart(8);

/** Rows `[label, value]`: the trivial floor, each phase of `command`, hook loading in detail, and the exit. */
export async function profileRows(command: Command, runs: number): Promise<Array<[string, string]>> {
	const trivial = await trivialExecutable(
		`const t = performance.now();\nawait Bun.write(Bun.stderr, ${JSON.stringify(PREFIX)} + JSON.stringify({ marks: [["first-module", t]] }) + "\\n");\n`,
	);
	const profiled: Command = { ...command, env: { ...command.env, XCSH_HOOKS_PROFILE: "1" } };
	const floor: number[] = [];
	const phases = new Map<string, number[]>();
	const firstImport: number[] = [];
	const laterImports: number[] = [];
	const afterExit: number[] = [];
	const walls: number[] = [];
	const trivialWalls: number[] = [];
	const push = (key: string, value: number) => {
		const list = phases.get(key);
		if (list) list.push(value);
		else phases.set(key, [value]);
	};
	for (let i = 0; i < runs + 2; i++) {
		const t = await runOnce({ ...command, name: "trivial", argv: [trivial] });
		const r = await runOnce(profiled);
		const tMarks = parseMarks(t.stderr);
		const marks = parseMarks(r.stderr);
		if (!marks || !tMarks) throw new Error(`no profile line from ${command.argv.join(" ")}: ${r.stderr.slice(0, 300)}`);
		if (i < 2) continue; // warm-up
		floor.push(tMarks[0]?.[1] ?? Number.NaN);
		trivialWalls.push(t.ms);
		walls.push(r.ms);
		let previous = 0;
		const spans: number[] = [];
		for (const [name, at] of marks) {
			const spanAt = name.lastIndexOf("@");
			if (spanAt > 0) {
				spans.push(at - Number(name.slice(spanAt + 1)));
				continue;
			}
			push(name, at - previous);
			previous = at;
		}
		if (spans.length > 0) firstImport.push(spans[0] as number);
		if (spans.length > 1) laterImports.push(median(spans.slice(1)));
		afterExit.push(r.ms - previous);
	}
	const rows: Array<[string, string]> = [
		["trivial exe: Bun start-up to first statement", ms(median(floor))],
		["trivial exe: whole process (spawn to exit)", ms(median(trivialWalls))],
	];
	let total = 0;
	for (const [name, values] of phases) {
		const value = median(values);
		total += value;
		const over = name === "first-module" ? `  (+${formatNs((value - median(floor)) * 1e6)} over trivial)` : "";
		rows.push([`  ${PHASES[name] ?? name}`, `${ms(value)}${over}`]);
		if (name === "imports" && firstImport.length > 0)
			rows.push([
				"    of which: one hook's import",
				`${ms(median(firstImport))} first, ${formatNs(median(laterImports.length ? laterImports : [Number.NaN]) * 1e6)} each later (overlapping)`,
			]);
	}
	rows.push(["  exit mark → process gone", ms(median(afterExit))]);
	rows.push([
		"bridge: whole process (spawn to exit)",
		`${ms(median(walls))}  (phases sum to ${formatNs((total + median(afterExit)) * 1e6)})`,
	]);
	return rows;
}
