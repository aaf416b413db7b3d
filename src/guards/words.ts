/* How words of a command line read as text and as paths: quoting, program names, paths from a directory. */

/** The text of a double-quoted word's body: `\$ \` \" \\` unescaped, line continuations removed. */
export const unescapeDouble = (text: string) => text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));

/** The text of a `$'…'` (ANSI-C quoted) body. */
export function decodeAnsiC(body: string): string {
	const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v" };
	return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|.)/gs, (_, esc: string) => {
		if (/^[xuU]/.test(esc) && esc.length > 1) return String.fromCodePoint(Number.parseInt(esc.slice(1), 16) % 0x110000);
		if (/^[0-7]+$/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8));
		return simple[esc] ?? esc;
	});
}

/** `/usr/bin/git` → `git`; `GIT` stays `GIT` (a different program on a case-sensitive file system). */
export function programName(word: string): string {
	const slash = word.lastIndexOf("/");
	return slash >= 0 && slash < word.length - 1 ? word.slice(slash + 1) : word;
}

/** An argument as an absolute path from `cwd`, or `undefined` when it cannot be known. */
export function resolveFrom(cwd: string | undefined, path: string, home: string): string | undefined {
	let p = path;
	const homeRef = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/;
	if (homeRef.test(p)) p = p.replace(homeRef, home);
	else if (/^(?:\$TMPDIR|\$\{TMPDIR\})(?=\/|$)/.test(p)) p = p.replace(/^(?:\$TMPDIR|\$\{TMPDIR\})/, process.env.TMPDIR || "/tmp");
	if (/[$`~]/.test(p)) return undefined;
	if (!p.startsWith("/")) {
		if (cwd === undefined) return undefined;
		p = `${cwd}/${p}`;
	}
	const out: string[] = [];
	for (const segment of p.split("/")) {
		if (segment === "" || segment === ".") continue;
		if (segment === "..") out.pop();
		else out.push(segment);
	}
	return `/${out.join("/")}`;
}
