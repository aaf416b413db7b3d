/**
 * What an interpreter one-liner (`python -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`, `lua -e`,
 * `Rscript -e`, `julia -e`, `osascript -e`) does to
 * files: the deleting calls in its code, and the shell command lines it hands to a shell
 * (`os.system("…")`, `execSync("…")`, `` `…` ``), which the analyzer reads like any other.
 * Regular expressions over the code: enough for one-liners, and on the side of blocking.
 */
import type { CodeDelete } from "./types.ts";

type Language = "python" | "node" | "ruby" | "perl" | "php" | "lua" | "r" | "julia" | "osascript";

/** Which flag carries the code, per interpreter. */
const CODE_FLAGS: Record<Language, readonly string[]> = {
	python: ["-c"],
	node: ["-e", "--eval", "-p", "--print"],
	ruby: ["-e"],
	perl: ["-e", "-E"],
	php: ["-r"],
	lua: ["-e"],
	r: ["-e"],
	julia: ["-e", "--eval", "-E", "--print"],
	osascript: ["-e"],
};

/** The language of a program name: `python3.12`, `nodejs`, `bun`, `deno`… */
export function interpreterOf(program: string): Language | undefined {
	if (/^python[0-9.]*$|^pypy[0-9.]*$/.test(program)) return "python";
	if (program === "node" || program === "nodejs" || program === "bun" || program === "deno") return "node";
	if (/^ruby[0-9.]*$/.test(program)) return "ruby";
	if (/^perl[0-9.]*$/.test(program)) return "perl";
	if (/^php[0-9.]*$/.test(program)) return "php";
	if (/^lua(?:jit|[0-9.]*)$/.test(program)) return "lua";
	if (program === "Rscript" || program === "R") return "r";
	if (program === "julia") return "julia";
	if (program === "osascript") return "osascript";
	return undefined;
}

/** Where a one-liner's code comes from: a flag, its standard input, or a file (maybe `<(…)`). */
export type CodeSource = { from: "code"; code: string | undefined } | { from: "stdin" } | { from: "file"; path: string };

/** Files that are the interpreter's own standard input. */
const STDIN = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Where the code a one-liner runs comes from (no script named: standard input). */
export function oneLinerCode(language: Language, args: readonly string[]): CodeSource {
	const flags = CODE_FLAGS[language];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (flags.includes(arg)) return { from: "code", code: args[i + 1] };
		const eq = flags.find((flag) => flag.startsWith("--") && arg.startsWith(`${flag}=`));
		if (eq) return { from: "code", code: arg.slice(eq.length + 1) };
		// Clustered: `perl -pe '…'`, `python3 -Bc '…'`, `ruby -rfileutils -e`.
		if (/^-[A-Za-z]+$/.test(arg) && flags.some((flag) => flag.length === 2 && arg.endsWith(flag[1] as string)))
			return { from: "code", code: args[i + 1] };
		if (arg === "eval" && language === "node") return { from: "code", code: args[i + 1] }; // `deno eval '…'`
		if (STDIN.test(arg)) return { from: "stdin" };
		if (!arg.startsWith("-")) return { from: "file", path: arg };
	}
	return { from: "stdin" };
}

/** Whether a delete call removes a whole tree: `rmtree`, `rm_rf`, `fs.rmSync(p, { recursive: true })`. */
function deletesTree(language: Language, call: string, rest: string): boolean {
	if (language === "r" || language === "julia") return /recursive\s*=\s*(?:T|TRUE|true)\b/.test(rest.split(";")[0] ?? "");
	if (language === "node")
		return /removeSync|emptyDir/.test(call) || (/(?:^|\.)rm(?:dir)?(?:Sync)?$/.test(call) && /recursive/.test(rest.split(";")[0] ?? ""));
	return /rmtree|rm_rf|rm_r$|remove_tree|remove_dir|remove_entry|removedirs/.test(call);
}

/** A delete or shell-running call named without being called (`f = shutil.rmtree`, `{ rmSync: r }`, `method(:rm_rf)`), or named in a string (`getattr(shutil, "rmtree")`). */
const ALIASED: Record<Language, RegExp> = {
	python: /\b(?:rmtree|system|popen|check_output|check_call|Popen|getoutput|unlink|remove|removedirs)\b(?!\s*\()/g,
	node: /\b(?:rmSync|rmdirSync|removeSync|execSync|exec|spawnSync|spawn|execFileSync|unlinkSync|rm|rmdir|unlink)\s*:\s*\w|=\s*(?:[\w$]+\s*\.\s*)*(?:rmSync|rmdirSync|removeSync|execSync|exec|spawnSync|spawn|execFileSync|unlinkSync|rm|rmdir|unlink)\b(?!\s*\()/g,
	ruby: /(?::|\bmethod\s*\(\s*:?)(?:rm_rf|rm_r|rm|remove_dir|remove_entry|rmtree|system|exec|spawn|delete|unlink)\b/g,
	perl: /\\&\s*(?:[\w:]*::)?(?:rmtree|remove_tree|unlink|system|exec)\b/g,
	php: /['"](?:unlink|rmdir|system|exec|shell_exec|passthru|popen|proc_open)['"]/g,
	lua: /\b(?:os\s*\.\s*(?:execute|remove)|io\s*\.\s*popen)\b(?!\s*[("'])/g,
	r: /(?!)/g,
	julia: /(?!)/g,
	osascript: /(?!)/g,
};
const DYNAMIC = /\b(?:getattr|__import__|import_module|eval|exec|send|public_send|method|Reflect)\s*\(|[\w$)\]]\s*\[\s*["'`]/;
const NAMES_IN_STRINGS = /["'`](?:shutil|rmtree|rm_rf|rmSync|rm|unlink|system|popen|execSync|exec|spawn|remove_tree|child_process)["'`]/;

const DELETES: Record<Language, RegExp> = {
	python: /(?:\b(?:shutil\s*\.\s*rmtree|os\s*\.\s*(?:remove|unlink|rmdir|removedirs)|rmtree|send2trash)|\.\s*(?:unlink|rmdir))\s*\(/g,
	node: /(?:\b(?:fs|fsp|promises)|\))\s*\.\s*(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync)\s*\(|\b(?:rmSync|rmdirSync|unlinkSync|removeSync|Deno\s*\.\s*remove(?:Sync)?)\s*\(|\bBun\s*\.\s*file\s*\([^)]*\)\s*\.\s*delete\s*\(/g,
	ruby: /\b(FileUtils\s*\.\s*(?:rm_rf|rm_r|rm_f|rm|remove_dir|remove_entry|remove_entry_secure|rmtree|remove|rmdir)|File\s*\.\s*(?:delete|unlink)|Dir\s*\.\s*(?:rmdir|delete|unlink)|rm_rf)\b\s*\(?/g,
	perl: /\b(unlink|rmtree|remove_tree|rmdir|File::Path::rmtree)\b\s*\(?/g,
	php: /\b(unlink|rmdir|array_map\s*\(\s*['"]unlink['"])\s*\(?/g,
	lua: /\bos\s*\.\s*remove\s*\(?/g,
	r: /\b(?:unlink|file\s*\.\s*remove)\s*\(/g,
	julia: /\b(?:Base\s*\.\s*)?rm\s*\(/g,
	osascript: /(?!)/g,
};

/** Calls that hand a string to a shell, the string being the first argument. */
const SHELLS: Record<Language, RegExp> = {
	python: /\b(?:os\s*\.\s*(?:system|popen)|subprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(/g,
	node: /\b(?:execSync|exec|spawnSync|spawn|execFileSync|execFile|Bun\s*\.\s*spawnSync|Bun\s*\.\s*spawn)\s*\(/g,
	ruby: /\b(?:system|exec|spawn|IO\s*\.\s*popen|Open3\s*\.\s*\w+)\s*\(?/g,
	perl: /\b(?:system|exec)\s*\(?/g,
	php: /\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*\(/g,
	lua: /\b(?:os\s*\.\s*execute|io\s*\.\s*popen)\s*\(?/g,
	r: /\b(?:system|system2|shell)\s*\(/g,
	julia: /\brun\s*\(/g,
	osascript: /\bdo\s+shell\s+script\s*/g,
};

/** Backquotes and their cousins: a shell command line in the code itself. */
const INLINE_SHELL: Partial<Record<Language, RegExp>> = {
	ruby: /`([^`]*)`|%x\(([^)]*)\)/g,
	perl: /`([^`]*)`|qx\(([^)]*)\)|qx\{([^}]*)\}/g,
	php: /`([^`]*)`/g,
	julia: /`([^`]*)`/g,
};

const STRING = /^\s*(?:[rbuRBU]|f(?=["']))?(["'`])((?:\\.|(?!\1)[^\\])*)\1/s;
const STRINGS_IN_LIST = /^\s*\[((?:[^\]"']|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')*)\]/s;

/** The string literal at the start of `text`, unescaped (`\\` and the quote only). */
function leadingString(text: string): string | undefined {
	const match = STRING.exec(text);
	return match ? (match[2] as string).replace(/\\(.)/g, "$1") : undefined;
}

/** An argv written as a list literal (`["rm", "-rf", "/"]`), as one shell-quoted line. */
function leadingList(text: string): string | undefined {
	const match = STRINGS_IN_LIST.exec(text);
	if (!match) return undefined;
	const items = [...(match[1] as string).matchAll(/"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'/g)].map((m) =>
		(m[1] ?? m[2] ?? "").replace(/\\(.)/g, "$1"),
	);
	return items.map((item) => `'${item.replaceAll("'", "'\\''")}'`).join(" ");
}

/** `code` with the insides of its string literals blanked, offsets kept: a call named in a string is data. */
function maskStrings(code: string, language: Language): string {
	const literal = language === "node" || language === "python" ? /(["'`])(?:\\.|(?!\1)[^\\])*\1/gs : /(["'])(?:\\.|(?!\1)[^\\])*\1/gs;
	return code.replace(literal, (match) => `${match[0]}${" ".repeat(match.length - 2)}${match.at(-1)}`);
}

/**
 * The deleting calls in `code` and the shell command lines it runs. A call that deletes one file
 * named in the code (`os.remove('tmp.txt')`) is left out, as `rm tmp.txt` is; a call named
 * without being called, or reached by name at run time, is kept with no target.
 */
export function scanCode(language: Language, code: string): { deletes: CodeDelete[]; shells: string[]; unseen?: string } {
	let unseen: string | undefined;
	const deletes: CodeDelete[] = [];
	const shells: string[] = [];
	const masked = maskStrings(code, language);
	for (const match of masked.matchAll(DELETES[language])) {
		const after = code.slice((match.index ?? 0) + match[0].length);
		const call = code
			.slice(match.index ?? 0, (match.index ?? 0) + match[0].length)
			.replace(/\s+/g, "")
			.replace(/^[).]+|\($/g, "");
		const target = leadingString(after);
		const rest = masked.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 160);
		const recursive = deletesTree(language, call, rest);
		// One file named in the code, where it runs: as `rm tmp.txt`, not a guard's business.
		if (!recursive && target !== undefined && /^(?!\/|~|\$)(?!.*(?:^|\/)\.\.(?:\/|$))[^*?[]+$/.test(target)) continue;
		deletes.push({ call, target, recursive });
	}
	// `from os import remove` names without aliasing; `import … as x` and `x = …` alias.
	const aliasing =
		language === "python" ? masked.replace(/(^|;)\s*from\s+[\w.]+\s+import\s+(?![^;\n]*\bas\b)[\w\s,]+(?=;|$)/gm, "$1") : masked;
	for (const match of aliasing.matchAll(ALIASED[language]))
		deletes.push({ call: match[0].replace(/\W+/g, ""), target: undefined, recursive: true });
	if (DYNAMIC.test(masked) && NAMES_IN_STRINGS.test(code))
		deletes.push({ call: "a call named at run time", target: undefined, recursive: true });
	for (const match of masked.matchAll(SHELLS[language])) {
		const after = code.slice((match.index ?? 0) + match[0].length);
		const line = leadingString(after) ?? leadingList(after);
		// `os.system(cmd)`, `os.system("rm -rf " + p)`: a command built at run time.
		const end = after.slice(STRING.exec(after)?.[0].length ?? STRINGS_IN_LIST.exec(after)?.[0].length ?? 0);
		if (line === undefined || !/^\s*(?:[),]|$)/.test(end)) {
			unseen = "a one-liner that runs a command it builds at run time";
			continue;
		}
		// `spawn("rm", ["-rf", "/"])`: the program, then its argument list.
		const rest = end.replace(/^\s*,/, "");
		const list = language === "node" && STRING.test(after) ? leadingList(rest) : undefined;
		shells.push(list ? `'${line}' ${list}` : line);
	}
	const inline = INLINE_SHELL[language];
	if (inline) for (const match of code.matchAll(inline)) shells.push(match.slice(1).find((group) => group !== undefined) ?? "");
	return unseen === undefined ? { deletes, shells } : { deletes, shells, unseen };
}
