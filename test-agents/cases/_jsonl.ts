import { existsSync, readFileSync } from "node:fs";

/** The JSON lines of `file` (the decision log, a hook's record), skipping any that do not parse; none when it is missing. */
export function readLines<T>(file: string): T[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim())
		.flatMap((line) => {
			try {
				return [JSON.parse(line) as T];
			} catch {
				return [];
			}
		});
}
