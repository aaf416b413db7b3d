/**
 * How a shell is told what to run: `-c SCRIPT` (options and their values read as the shell reads
 * them: `bash -O extglob -c …`, `bash -o errexit -c …`), a script file, or its standard input
 * (none named, `-s`, `-`, `/dev/stdin`).
 */

/** Shells the analyzer reads; `busybox sh` arrives here as `sh`. */
export const SHELLS = new Set([
	"sh",
	"bash",
	"zsh",
	"dash",
	"ksh",
	"mksh",
	"ash",
	"fish",
	"yash",
	"posh",
	"rbash",
	"lksh",
	"pdksh",
	"ksh93",
]);

/** What a shell invocation runs. */
export type ShellInput =
	| { from: "command"; script: string | undefined }
	| { from: "file"; path: string; computed: boolean }
	| { from: "stdin" };

/** Files that are a shell's own standard input. */
export const STDIN_FILES = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Reads `program args` as the shell does. */
export function shellInput(program: string, args: readonly string[], computed: readonly boolean[]): ShellInput {
	const fish = program === "fish";
	// Letters whose value is the next word: bash's `-o`/`-O`, fish's `-c`/`-C`/`-p`/`-d`/`-o`.
	const valued = fish ? "cCpdo" : program === "bash" || program === "rbash" ? "oO" : "o";
	const longValued = fish
		? ["--command", "--init-command", "--profile", "--debug", "--debug-output", "--features"]
		: ["--rcfile", "--init-file"];
	let command = false;
	let fromStdin = false;
	let script: string | undefined;
	const scripts: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--" || (arg === "-" && !fish)) {
			if (arg === "-" && !command) return { from: "stdin" };
			i++;
			return pick(args[i], computed[i] === true);
		}
		if (arg.startsWith("--")) {
			const [name = "", value] = arg.split(/=(.*)/s, 2);
			const given = value ?? (longValued.includes(name) ? args[++i] : undefined);
			if (fish && (name === "--command" || name === "--init-command") && given !== undefined) scripts.push(given);
			continue;
		}
		if (/^[-+][A-Za-z]+$/.test(arg)) {
			for (const letter of arg.slice(1)) {
				if (valued.includes(letter)) {
					const value = args[++i];
					if (fish && (letter === "c" || letter === "C") && value !== undefined) scripts.push(value);
				} else if (letter === "c" && arg.startsWith("-")) command = true;
				else if (letter === "s" && arg.startsWith("-") && !fish) fromStdin = true;
			}
			continue;
		}
		return pick(arg, computed[i] === true);
	}
	if (fish && scripts.length > 0) return { from: "command", script: scripts.join("\n") };
	return command ? { from: "command", script } : { from: "stdin" };

	function pick(word: string | undefined, isComputed: boolean): ShellInput {
		if (fish && scripts.length > 0) return { from: "command", script: scripts.join("\n") };
		if (command) return { from: "command", script: word };
		if (word === undefined || fromStdin) return { from: "stdin" };
		if (STDIN_FILES.test(word)) return { from: "stdin" };
		return { from: "file", path: word, computed: isComputed };
	}
}
