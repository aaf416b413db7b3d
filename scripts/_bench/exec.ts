/** `execCommand("/bin/true")` against a raw `Bun.spawn` + `await exited`. */
import { execCommand } from "../../src/exec/exec-command.ts";
import { compare } from "./micro.ts";
import { formatNs, formatRatio, type Report } from "./report.ts";

export async function benchExec(report: Report): Promise<void> {
	await report.section("execCommand", "per call of /bin/true, median of interleaved rounds");
	const cwd = process.cwd();
	const c = await compare(
		[
			{
				name: "raw",
				fn: async () => {
					const proc = Bun.spawn(["/bin/true"]);
					await proc.exited;
				},
			},
			{ name: "exec", fn: () => execCommand("/bin/true", [], cwd) },
		],
		// Each round spawns processes: --check triples the rounds, so noise alone does not move the verdict.
		{ batchMs: 25, rounds: report.rounds(15) },
	);
	const ns = Object.fromEntries(c.results.map((r) => [r.name, r.nsPerOp]));
	const ratio = c.ratio("exec", "raw");
	await report.line("Bun.spawn + await exited", formatNs(ns.raw as number));
	await report.line("execCommand (both pipes read, capped)", `${formatNs(ns.exec as number)}  → ${formatRatio(ratio)} raw spawn`);
	report.budget("execCommand vs raw Bun.spawn", ratio, 1.2, undefined, undefined, c.spread("exec", "raw"));
}
