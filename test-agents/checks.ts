/** One assertion's outcome. */
export interface Check {
	name: string;
	status: "pass" | "fail" | "skip";
	/** Why it failed or was skipped, or what was seen. */
	detail?: string;
}

/** Collects the checks of one case. */
export class Checks {
	readonly list: Check[] = [];

	/** Records a pass when `ok`, else a fail with `detail`. */
	expect(name: string, ok: boolean, detail?: string): boolean {
		this.list.push({ name, status: ok ? "pass" : "fail", ...(ok || detail === undefined ? {} : { detail }) });
		return ok;
	}

	/** Records a skipped check. */
	skip(name: string, reason: string): void {
		this.list.push({ name, status: "skip", detail: reason });
	}

	/** True when nothing failed. */
	get ok(): boolean {
		return this.list.every((c) => c.status !== "fail");
	}
}

/** The last `n` characters of `text`, on one line, for failure details. */
export function tail(text: string, n = 400): string {
	const t = text.length > n ? `…${text.slice(-n)}` : text;
	return t.replaceAll("\n", "\\n");
}
