import { writeOrDrop } from "../process/closed-pipe.ts";

/** What `bridge` prints of an answer: its stderr lines, then the one answer line on stdout (nothing for "no opinion"); a closed pipe drops the rest quietly. */
export async function writeAnswer(answer: { stdout: string; stderr: string[] }): Promise<void> {
	if (answer.stderr.length > 0) await writeOrDrop(2, () => Bun.write(Bun.stderr, `${answer.stderr.join("\n")}\n`));
	if (answer.stdout) await writeOrDrop(1, () => Bun.write(Bun.stdout, answer.stdout.endsWith("\n") ? answer.stdout : `${answer.stdout}\n`));
}
