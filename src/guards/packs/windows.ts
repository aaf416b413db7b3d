/**
 * The `windows` pack (opt-in): cmd and PowerShell forms that destroy data or open the system —
 * `format C:`, `del /s /q`, `rd /s /q`, `Remove-Item -Recurse -Force` (parameters matched by
 * prefix as PowerShell does: `-r -fo`), `icacls … /grant Everyone:F`, `takeown`, `cipher /w`.
 * It reads them where they are written directly and inside `cmd /c "…"`, `powershell -Command "…"`
 * and `powershell -EncodedCommand …`, splitting their text into statements with cmd's and
 * PowerShell's own separators.
 */
import type { RuleContext, RulePack, ShellCommand, ShellRule } from "../types.ts";
import { unsafeTarget } from "./_paths.ts";

/** One statement: its program (lower-case, `.exe` dropped) and words, and which language it is. */
interface Statement {
	program: string;
	args: string[];
	language: "cmd" | "powershell" | "shell";
}

/** Splits cmd or PowerShell text into statements of words (quotes removed). */
function split(text: string, language: "cmd" | "powershell"): Statement[] {
	const out: Statement[] = [];
	let words: string[] = [];
	let word = "";
	let inWord = false;
	let quote: string | undefined;
	const escapeChar = language === "cmd" ? "^" : "`";
	const endWord = () => {
		if (inWord) words.push(word);
		word = "";
		inWord = false;
	};
	const endStatement = () => {
		endWord();
		while (words[0] === "&" || words[0] === ".") words.shift();
		if (words.length > 0) out.push({ program: normal(words[0] as string), args: words.slice(1), language });
		words = [];
	};
	for (let i = 0; i < text.length; i++) {
		const c = text[i] as string;
		if (c === escapeChar && !quote && i + 1 < text.length) {
			word += text[++i];
			inWord = true;
		} else if (quote) {
			if (c === quote) quote = undefined;
			else word += c;
		} else if (c === '"' || (c === "'" && language === "powershell")) {
			quote = c;
			inWord = true;
		} else if (
			c === "&" ||
			c === "|" ||
			c === "\n" ||
			c === "\r" ||
			(language === "powershell" && (c === ";" || c === "{" || c === "}" || c === "(" || c === ")"))
		) {
			endStatement();
			if ((c === "&" || c === "|") && text[i + 1] === c) i++;
		} else if (/\s/.test(c)) endWord();
		else {
			word += c;
			inWord = true;
		}
	}
	endStatement();
	return out;
}

const normal = (program: string) =>
	program
		.toLowerCase()
		.replace(/^.*[\\/]/, "")
		.replace(/\.(?:exe|com|cmd|bat)$/, "");

/** PowerShell's host options that take a value. */
const PS_VALUE =
	/^-(?:executionpolicy|ep|ex|windowstyle|w|inputformat|if|outputformat|of|version|v|configurationname|config|workingdirectory|wd|settingsfile)$/i;

/** The statements a command runs in cmd or PowerShell, or the command itself when it is a Windows form. */
const cache = new WeakMap<ShellCommand, Statement[]>();
function statements(command: ShellCommand): Statement[] {
	let found = cache.get(command);
	if (found) return found;
	const program = normal(command.program);
	const args = command.args;
	found = [{ program, args, language: "shell" }];
	if (program === "cmd") {
		const at = args.findIndex((a) => /^\/[ckCK]$/.test(a) || /^\/[ckCK]./.test(a));
		if (at >= 0) {
			const first = (args[at] as string).length > 2 ? [(args[at] as string).slice(2)] : [];
			found = split([...first, ...args.slice(at + 1)].join(" "), "cmd");
		}
	} else if (program === "powershell" || program === "pwsh") {
		for (let i = 0; i < args.length; i++) {
			const arg = args[i] as string;
			if (PS_VALUE.test(arg)) {
				i++;
				continue;
			}
			if (/^-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*)$/i.test(arg)) {
				const text = Buffer.from(args[i + 1] ?? "", "base64").toString("utf16le");
				found = split(text, "powershell");
				break;
			}
			if (/^-c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?$/i.test(arg) || !arg.startsWith("-")) {
				found = split(args.slice(/^-/.test(arg) ? i + 1 : i).join(" "), "powershell");
				break;
			}
		}
	}
	cache.set(command, found);
	return found;
}

/** Why deleting a Windows path (recursively) loses data, or `undefined` when it is temp or regenerable. */
function windowsTarget(path: string, context: RuleContext): string | undefined {
	const p = path.replace(/\\/g, "/");
	if (/^(?:\$env:(?:TEMP|TMP)|%(?:TEMP|TMP)%|[A-Za-z]:\/Windows\/Temp|[A-Za-z]:\/Users\/[^/]+\/AppData\/Local\/Temp)\/./i.test(p))
		return undefined;
	if (/^(?:[A-Za-z]:\/?|\/|\/\/.*)$/.test(p)) return `${path}: a whole drive`;
	if (/^(?:~|\$HOME|\$env:USERPROFILE|%USERPROFILE%|%HOMEPATH%|[A-Za-z]:\/Users\/[^/]+)\/?$/i.test(p)) return `${path}: the home folder`;
	if (/^[A-Za-z]:\/(?:Windows|Program Files|Program Files \(x86\)|ProgramData|Users)(?:\/|$)/i.test(p)) return `${path}: a system folder`;
	if (/[$%]/.test(p) || /^[A-Za-z]:/.test(p)) return `${path}: outside the project's regenerable folders and temp dirs`;
	return unsafeTarget(p, false, context);
}

/** PowerShell parameter names of Remove-Item (and aliases), matched by unique prefix. */
const REMOVE_PARAMS = [
	"path",
	"literalpath",
	"filter",
	"include",
	"exclude",
	"recurse",
	"force",
	"credential",
	"whatif",
	"confirm",
	"stream",
	"progressaction",
];
const REMOVE_ALIASES: Record<string, string> = {
	lp: "literalpath",
	pspath: "literalpath",
	wi: "whatif",
	cf: "confirm",
	proga: "progressaction",
};
const SWITCHES = new Set(["recurse", "force", "whatif", "confirm"]);

/** Remove-Item's arguments: its switches (with `-Recurse:$false` off) and its paths. */
function removeItem(args: readonly string[]): { switches: Set<string>; paths: string[] } {
	const switches = new Set<string>();
	const paths: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		const m = /^-([A-Za-z]+)(?::(.*))?$/.exec(arg);
		if (!m) {
			paths.push(...arg.split(",").filter(Boolean));
			continue;
		}
		const name = (m[1] as string).toLowerCase();
		const matches = REMOVE_ALIASES[name]
			? [REMOVE_ALIASES[name] as string]
			: REMOVE_PARAMS.includes(name)
				? [name]
				: REMOVE_PARAMS.filter((p) => p.startsWith(name));
		for (const match of matches) {
			if (SWITCHES.has(match)) {
				if (m[2] === undefined || !/^\$?(?:false|0)$/i.test(m[2])) switches.add(match);
			} else if (m[2] === undefined) {
				const value = args[++i];
				if (value !== undefined && (match === "path" || match === "literalpath")) paths.push(...value.split(",").filter(Boolean));
			} else if (match === "path" || match === "literalpath") paths.push(m[2]);
		}
	}
	return { switches, paths };
}

const REMOVE_ITEM = new Set(["remove-item", "ri", "rm", "rmdir", "rd", "del", "erase"]);

/** A rule over every statement of a command, in any of the three languages. */
function windowsRule(
	id: string,
	reason: string,
	test: (s: Statement, command: ShellCommand, context: RuleContext) => string | false | undefined,
): ShellRule {
	return {
		id: `windows/${id}`,
		reason,
		test(command, context) {
			for (const statement of statements(command)) {
				const why = test(statement, command, context);
				if (why) return why;
			}
			return false;
		},
	};
}

const switchesOf = (args: readonly string[]) => args.filter((a) => /^\/./.test(a)).map((a) => a.toLowerCase());
const operandsOf = (args: readonly string[]) => args.filter((a) => !/^\/./.test(a));

const rules: ShellRule[] = [
	windowsRule("format", "formats or wipes a disk (format, Format-Volume, Clear-Disk, diskpart)", (s) => {
		if (s.program === "format" && s.args.some((a) => /^[A-Za-z]:[\\/]?$/.test(a))) return `format ${s.args.join(" ")} erases a drive`;
		if (/^(?:format-volume|clear-disk|initialize-disk|remove-partition|diskpart|sdelete|sdelete64)$/.test(s.program))
			return `${s.program} erases disk data`;
		return false;
	}),
	windowsRule("recursive-delete", "a recursive delete (del /s, rd /s, Remove-Item -Recurse) outside temp dirs", (s, _command, context) => {
		const program = s.program;
		const cmdForm =
			s.language === "cmd" ||
			((program === "del" || program === "erase" || program === "rd" || program === "rmdir") && s.args.some((a) => /^\/[sq]$/i.test(a)));
		if (cmdForm && (program === "del" || program === "erase")) {
			const switches = switchesOf(s.args);
			const targets = operandsOf(s.args);
			const everything = targets.find((t) => /(?:^|[\\/])\*(?:\.\*)?$/.test(t) || /^[A-Za-z]:[\\/]?$/.test(t));
			if (switches.includes("/s")) {
				const why = targets.map((t) => windowsTarget(t, context)).find(Boolean);
				return why ? `del /s deletes files in every subfolder (${why})` : false;
			}
			return everything !== undefined && `${program} ${everything} deletes every file in the folder`;
		}
		if (cmdForm && (program === "rd" || program === "rmdir")) {
			if (!switchesOf(s.args).includes("/s")) return false;
			const why = operandsOf(s.args)
				.map((t) => windowsTarget(t, context))
				.find(Boolean);
			return why ? `${program} /s deletes a folder tree (${why})` : false;
		}
		const powershell = s.language === "powershell" || program === "remove-item";
		if (!powershell || !REMOVE_ITEM.has(program)) return false;
		const { switches, paths } = removeItem(s.args);
		if (switches.has("whatif")) return false;
		if (paths.some((p) => /^(?:HK(?:LM|CU|CR|U|CC)|Registry)::?/i.test(p))) return "Remove-Item deletes registry keys";
		if (!switches.has("recurse")) return false;
		if (paths.length === 0) return "Remove-Item -Recurse on items from a pipeline the guard cannot see";
		const why = paths.map((p) => windowsTarget(p, context)).find(Boolean);
		return why ? `Remove-Item -Recurse${switches.has("force") ? " -Force" : ""} (${why})` : false;
	}),
	windowsRule("acl", "grants everyone access or resets permissions of system files (icacls, cacls)", (s) => {
		if (s.program !== "icacls" && s.program !== "cacls" && s.program !== "xcacls") return false;
		const text = s.args.join(" ");
		if (
			/\/(?:grant|g|e)(?::r)?\s[^/]*(?<![\w-])(?:everyone|\*s-1-1-0|users|\*s-1-5-32-545|authenticated users|\*s-1-5-11|builtin\\users)(?![\w-])/i.test(
				text,
			)
		)
			return `${s.program} grants everyone access (${text})`;
		return (
			/\/(?:reset|setowner|remove)\b/i.test(text) &&
			/^[A-Za-z]:[\\/]?(?:windows|program files|users|programdata)?/i.test(s.args[0] ?? "") &&
			`${s.program} rewrites the permissions of system files`
		);
	}),
	windowsRule("takeown", "takes ownership of files (takeown)", (s) => s.program === "takeown" && `takeown ${s.args.join(" ")}`),
	windowsRule(
		"cipher-wipe",
		"wipes free disk space beyond recovery (cipher /w)",
		(s) => s.program === "cipher" && s.args.some((a) => /^\/w/i.test(a)) && "cipher /w overwrites deleted data",
	),
	windowsRule("system", "deletes backups, boot entries, registry keys or logs, or turns protection off", (s) => {
		const text = `${s.program} ${s.args.join(" ")}`.toLowerCase();
		if (/^vssadmin (?:delete|resize) shadow/.test(text) || /^wmic shadowcopy delete/.test(text))
			return "deletes volume shadow copies (backups)";
		if (/^wbadmin delete/.test(text)) return "wbadmin deletes backups";
		if (/^bcdedit \/(?:delete|deletevalue|set)/.test(text)) return "bcdedit changes boot entries";
		if (/^reg delete (?:hklm|hkey_local_machine|hkcr|hkey_classes_root|hku|hkey_users)/.test(text))
			return "reg delete removes system registry keys";
		if (/^wevtutil (?:cl|clear-log)/.test(text) || /^clear-eventlog/.test(text)) return "clears the event logs";
		if (/^set-mppreference .*-disable\w*\s+(?:\$?true|1)/.test(text) || /^netsh .*firewall.*state\s+off/.test(text))
			return "turns Windows protection off";
		if (/^net user \S+ \/delete/.test(text)) return "deletes a Windows user";
		return false;
	}),
];

/** cmd and PowerShell: format, del /s, rd /s, Remove-Item -Recurse, icacls /grant Everyone, takeown, cipher /w. */
export const windowsPack: RulePack = {
	name: "windows",
	description: "cmd/PowerShell forms: format, del /s, rd /s, Remove-Item -Recurse (-r -fo), icacls /grant Everyone, takeown, cipher /w",
	rules,
	protects: [
		"disks: format C:, Format-Volume, Clear-Disk, diskpart, sdelete, cipher /w",
		"recursive deletes: del /s, rd /s /q, rmdir /s, Remove-Item -Recurse (any prefix: -r, -rec, -fo), also inside cmd /c, powershell -Command and -EncodedCommand",
		"permissions: icacls/cacls /grant Everyone|Users, takeown; shadow copies, boot entries, system registry keys, event logs, Defender/firewall off",
	],
	leavesAlone: [
		"deletes of single files, Remove-Item -WhatIf, recursive deletes of regenerable folders (node_modules, dist…) and temp dirs",
	],
};
