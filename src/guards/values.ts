/** What a command substitution the line assigns stands for, when the guard can say: a fresh temp dir, or a program's name. */
import type { Var } from "./scope.ts";

/** `$(mktemp -d)` is a fresh temp dir, `$(command -v X)` / `$(which X)` names program X; else `undefined`. */
export function substitutionValue(argv: readonly string[]): Var | undefined {
	const [name, ...args] = argv;
	if ((name === "command" && /^-[vV]$/.test(args[0] ?? "")) || name === "which" || (name === "type" && args[0] === "-P")) {
		const program = args.at(-1);
		if (program && /^[\w./+-]+$/.test(program)) return { text: program, computed: false, mayBeEmpty: true };
	}
	if (name === "mktemp") {
		const temp = mktempPath(args);
		if (temp) return { text: temp, computed: false, mayBeEmpty: true };
	}
	return undefined;
}

/** Where `mktemp args` makes its file or folder when that is a temp dir, else `undefined`. */
function mktempPath(args: readonly string[]): string | undefined {
	const root = (process.env.TMPDIR || "/tmp").replace(/\/+$/, "") || "/tmp";
	let dir: string | undefined;
	let template: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "-p" || arg === "--tmpdir") dir = arg === "-p" ? args[++i] : root;
		else if (arg.startsWith("--tmpdir=")) dir = arg.slice(9);
		else if (arg.startsWith("-p") && arg.length > 2) dir = arg.slice(2);
		else if (/^-[dqut]+$/.test(arg) || arg === "--directory" || arg === "--quiet" || arg === "--dry-run") {
			if (arg.includes("t")) dir ??= root;
		} else if (arg.startsWith("-")) return undefined;
		else template = arg;
	}
	if (template?.includes("/")) return template.startsWith("/") ? template : undefined;
	const base = dir ?? (template === undefined ? root : undefined);
	if (base !== root && !/^\/(?:var\/)?tmp\/?$/.test(base ?? "")) return undefined;
	return `${base}/${template ?? "tmp.XXXXXXXXXX"}`;
}
