/**
 * The code a git command runs: a `!` alias, `rebase --exec`, `bisect run`, `submodule foreach`,
 * `difftool --extcmd`, `--upload-pack`/`--receive-pack`, an `ext::` URL, and the pagers, editors and
 * ssh commands given with `-c` or `GIT_*` variables — handed back to the guard to judge as shell.
 */
import type { NestedRun, ShellCommand } from "../types.ts";
import { configBool, readGit, splitCmdline } from "./_git-call.ts";
import { optionValue } from "./_git-options.ts";

/** Configuration keys whose value git hands to the shell (or runs as a program). */
const CODE_KEYS =
	/^(?:core\.(?:pager|editor|sshcommand|askpass|gitproxy)|pager\..+|sequence\.editor|diff\.external|diff\..+\.(?:command|textconv)|filter\..+\.(?:clean|smudge|process)|merge\..+\.driver|gpg\.program|gpg\..+\.program|(?:merge|diff)tool\..+\.cmd|remote\..+\.(?:uploadpack|receivepack)|uploadpack\.packobjectshook|sendemail\.smtpserver)$/;

/** Variables git hands to the shell. */
const CODE_VARIABLES = [
	"GIT_EDITOR",
	"GIT_SEQUENCE_EDITOR",
	"GIT_PAGER",
	"GIT_SSH_COMMAND",
	"GIT_SSH",
	"GIT_ASKPASS",
	"GIT_EXTERNAL_DIFF",
	"GIT_PROXY_COMMAND",
	"EDITOR",
	"VISUAL",
	"PAGER",
	"SSH_ASKPASS",
];

/** A configuration value git would run, as the shell command line it is. */
function codeOf(key: string, value: string | true): string | undefined {
	if (value === true || value === "") return undefined;
	if (key === "credential.helper") return value.startsWith("!") ? value.slice(1) : undefined;
	if (key === "core.fsmonitor") return configBool(value) === undefined ? value : undefined;
	return CODE_KEYS.test(key) ? value : undefined;
}

/** `ext::sh -c rm% -rf% ~` → `'sh' '-c' 'rm -rf ~'`: git splits at spaces, `% ` is a space inside a word, `%%` a `%`. */
function extCommand(url: string): string {
	const words = url
		.slice(5)
		.split(/(?<!%) /)
		.map((word) => word.replace(/%(.)/g, (_, c: string) => (c === " " || c === "%" ? c : "")));
	return words.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
}

/** The command lines a `git …` command runs besides git itself. */
export function gitNested(command: ShellCommand): NestedRun[] | undefined {
	if (command.program !== "git") return undefined;
	const { call, options } = readGit(command);
	const runs: NestedRun[] = [];
	if (call.shell !== undefined) runs.push({ via: `git alias ${call.aliases.at(-1)}`, script: call.shell });
	for (const [key, value] of call.config) {
		const code = codeOf(key, value);
		if (code !== undefined) runs.push({ via: `git -c ${key}`, script: code });
	}
	for (const name of CODE_VARIABLES) {
		const variable = command.env?.[name];
		if (variable && variable.value !== "") runs.push({ via: `git ${name}`, script: variable.value });
	}
	const extAllowed = [call.config.get("protocol.ext.allow"), call.config.get("protocol.allow")].includes("always");
	if (extAllowed) for (const arg of call.args) if (arg.startsWith("ext::")) runs.push({ via: "git ext::", script: extCommand(arg) });
	if (!options || options.help) return runs;
	const words = [...options.positionals, ...(options.paths ?? [])];
	switch (call.name) {
		case "rebase":
			for (const given of options.given)
				if (given.name === "exec" && given.value !== undefined) runs.push({ via: "git rebase --exec", script: given.value });
			break;
		case "bisect": {
			// `git bisect run CMD ARGS…`: an argv, options and all.
			const at = call.args.indexOf("run");
			if (words[0] === "run" && at + 1 < call.args.length) runs.push({ via: "git bisect run", argv: call.args.slice(at + 1) });
			break;
		}
		case "submodule": {
			const at = call.args.indexOf("foreach");
			const rest =
				at < 0
					? []
					: call.args
							.slice(at + 1)
							.filter((arg, i, all) => !(/^(?:--recursive|-q|--quiet)$/.test(arg) && all.slice(0, i).every((a) => a.startsWith("-"))));
			if (rest.length > 0) runs.push({ via: "git submodule foreach", script: rest.join(" ") });
			break;
		}
		case "difftool": {
			const tool = optionValue(options, "extcmd");
			if (tool) runs.push({ via: "git difftool --extcmd", script: tool });
			break;
		}
		case "push":
		case "fetch":
		case "pull":
		case "clone":
		case "ls-remote":
		case "archive":
			for (const arg of call.args) {
				const m = /^--(?:upload-pack|receive-pack|exec)=(.*)$/s.exec(arg);
				if (m) runs.push({ via: `git ${call.name} ${arg.slice(0, arg.indexOf("="))}`, script: m[1] as string });
			}
			for (const [i, arg] of call.args.entries())
				if (
					/^(?:--upload-pack|--receive-pack|--exec|-u)$/.test(arg) &&
					call.args[i + 1] !== undefined &&
					!(arg === "-u" && call.name === "push")
				)
					runs.push({ via: `git ${call.name} ${arg}`, script: call.args[i + 1] as string });
			break;
		case "config": {
			// Writing a setting that runs code, or an alias: judged as if it ran (it will, on the next git call).
			const set = words[0] === "set" ? words.slice(1) : words;
			const [key, value] = set;
			if (key === undefined || value === undefined || ["get", "unset", "list", "remove-section", "rename-section"].includes(key)) break;
			const normal = key.toLowerCase();
			if (normal.startsWith("alias."))
				runs.push(
					value.startsWith("!")
						? { via: `git config ${key}`, script: value.slice(1) }
						: { via: `git config ${key}`, argv: ["git", ...splitCmdline(value)] },
				);
			else {
				const code = codeOf(normal, value);
				if (code !== undefined) runs.push({ via: `git config ${key}`, script: code });
			}
			break;
		}
	}
	return runs;
}
