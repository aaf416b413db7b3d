/** What `bridge` prints of an answer: its stderr lines, then the one answer line on stdout (nothing for "no opinion"). */
export async function writeAnswer(answer: { stdout: string; stderr: string[] }): Promise<void> {
	if (answer.stderr.length > 0) await Bun.write(Bun.stderr, `${answer.stderr.join("\n")}\n`);
	if (answer.stdout) await Bun.write(Bun.stdout, answer.stdout.endsWith("\n") ? answer.stdout : `${answer.stdout}\n`);
}
