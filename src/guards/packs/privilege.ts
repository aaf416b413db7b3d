/** The `privilege` pack (opt-in): running as root, setuid bits, opening system files, firewall flushes, kernel modules. */
import { parseOptions } from "../options.ts";
import type { RuleContext, RulePack, ShellRule } from "../types.ts";

/** What runs a command as another user (root by default). */
const ELEVATORS = /^(?:sudo|doas|su|pkexec|runas|run0|runuser|sudoedit|gosu|su-exec|machinectl shell)\b/;
/** sudo/doas options that run nothing: list, validate, version, help. */
const INERT = /^(?:-l|-ll|-v|-k|-K|-V|-h|--list|--validate|--version|--help|--reset-timestamp|--remove-timestamp|-L)$/;

/** System locations: the owner or mode of anything under them is the system's. */
const SYSTEM_PATH =
	/^\/(?:etc|usr|bin|sbin|lib|lib32|lib64|boot|opt|root|sys|proc|dev|System|Library|private\/etc)(?:\/|$)|^\/var(?:\/(?!tmp(?:\/|$))|$)|^\/$/;

/** A chmod mode that sets the setuid or setgid bit. */
const SETUID_MODE = /^(?:[0-7]?[2-7][0-7]{3}|[ugoa]*[-+=][rwxXt]*s[rwxXst]*(?:,.*)?|.*,[ugoa]*[-+=][rwxXt]*s.*)$/;
/** A chmod mode that makes something writable by everyone. */
const WORLD_WRITABLE = /^(?:[0-7]?[0-7]{2}[2367]|(?:[ugo]*[ao][ugo]*|)[+=][rwxXst]*w[rwxXst]*(?:,.*)?|.*,[ugo]*[ao][ugo]*[+=][^,]*w.*)$/;

const isSystem = (path: string, context: RuleContext) => {
	const resolved = context.resolve(path);
	return resolved !== undefined && SYSTEM_PATH.test(resolved);
};

const rules: ShellRule[] = [
	{
		id: "privilege/elevate",
		reason: "runs a command as root (sudo, su, doas…)",
		test(command) {
			const through = command.via.find((step) => ELEVATORS.test(step));
			if (through) return `runs ${command.program} as another user (via ${through})`;
			if (!ELEVATORS.test(command.program)) return false;
			if (command.args.length > 0 && command.args.every((arg) => INERT.test(arg))) return false;
			return `${command.program} runs a shell or command as another user`;
		},
	},
	{
		id: "privilege/setuid",
		reason: "sets a setuid/setgid bit or file capabilities",
		programs: ["chmod", "install", "setcap"],
		test(command) {
			if (command.program === "setcap")
				return !command.args.includes("-r") && !command.args.includes("-v") && "setcap gives a program capabilities";
			if (command.program === "install") {
				const mode = parseOptions(command.args, { shortValue: "mogSt" }).values.get("m") ?? "";
				return SETUID_MODE.test(mode) && `install -m ${mode} sets a setuid/setgid bit`;
			}
			const mode = parseOptions(command.args).positionals[0] ?? "";
			return SETUID_MODE.test(mode) && `chmod ${mode} sets a setuid/setgid bit`;
		},
	},
	{
		id: "privilege/system-files",
		reason: "changes the owner or mode of system files, or makes files writable by everyone",
		programs: ["chmod", "chown", "chgrp", "chattr", "setfacl"],
		test(command, context) {
			const options = parseOptions(command.args, { longValue: ["reference"] });
			const paths = options.long.has("reference") || command.program === "chattr" ? options.positionals : options.positionals.slice(1);
			const system = paths.find((path) => isSystem(path, context));
			if (system) return `${command.program} of a system file (${system})`;
			const mode = options.positionals[0] ?? "";
			if (command.program === "chmod" && WORLD_WRITABLE.test(mode)) {
				const outside = paths.find((path) => {
					const resolved = context.resolve(path);
					return resolved === undefined || !context.isTemp(resolved);
				});
				if (outside) return `chmod ${mode} makes ${outside} writable by everyone`;
			}
			return false;
		},
	},
	{
		id: "privilege/firewall",
		reason: "flushes or disables the firewall",
		test(command) {
			const p = command.program;
			const args = command.args;
			if (/^(?:ip6?tables(?:-legacy|-nft)?|arptables|ebtables)$/.test(p))
				return (
					args.some((a) => /^(?:-F|--flush|-X|--delete-chain)$/.test(a)) ||
					args.some((a, i) => /^(?:-P|--policy)$/.test(a) && args[i + 2]?.toUpperCase() === "ACCEPT")
				);
			if (p === "nft") return /\b(?:flush|delete)\s+(?:ruleset|table|chain)\b/.test(args.join(" "));
			if (p === "ufw") return args.some((a) => a === "disable" || a === "reset") || /\bdefault\s+allow\b/.test(args.join(" "));
			if (p === "pfctl") return args.some((a) => a === "-d" || /^-F/.test(a));
			if (p === "firewall-cmd") return args.some((a) => /^--(?:panic-off|set-default-zone=trusted)$/.test(a));
			if (p === "setenforce") return args[0] === "0" || /^permissive$/i.test(args[0] ?? "");
			if (p === "systemctl" || p === "service")
				return (
					/\b(?:stop|disable|mask|kill)\b/.test(args.join(" ")) &&
					args.some((a) => /^(?:firewalld|ufw|nftables|iptables|ip6tables|apparmor|auditd)(?:\.service)?$/.test(a))
				);
			if (/^netsh(?:\.exe)?$/i.test(p))
				return /\bfirewall\b.*\bstate\s+off\b|\bfirewall\b.*\bopmode\s+(?:mode=)?disable\b/i.test(args.join(" "));
			return false;
		},
	},
	{
		id: "privilege/kernel-module",
		reason: "loads or removes kernel modules",
		test(command) {
			const p = command.program;
			if (p === "rmmod" || p === "insmod" || p === "kexec") return true;
			if (p === "modprobe") return command.args.some((a) => /^(?:-r|--remove|-[a-zA-Z]*r[a-zA-Z]*|-f|--force)$/.test(a));
			if (p === "kmutil" || p === "kextload" || p === "kextunload") return true;
			return false;
		},
	},
];

/** sudo/su/doas, setuid bits, chmod/chown of system files and chmod 777, firewall flushes, kernel modules. */
export const privilegePack: RulePack = {
	name: "privilege",
	description: "sudo/su/doas, setuid/setgid and capabilities, chmod/chown of system files, chmod 777, firewall flushes, kernel modules",
	rules,
	protects: [
		"running as another user: sudo, su, doas, pkexec, runas, run0, runuser, sudoedit (and what they run)",
		"setuid/setgid: chmod u+s/g+s/4755/2755, install -m 4755, setcap",
		"owner and mode of system files (/etc, /usr, /bin, /boot, /var…), chmod that makes files writable by everyone (777, 666, o+w, a+w) outside temp dirs",
		"firewall: iptables -F/-X/-P … ACCEPT, nft flush ruleset, ufw disable/reset, pfctl -d, stopping firewalld/ufw, setenforce 0, netsh firewall off",
		"kernel modules: rmmod, insmod, modprobe -r, kexec",
	],
	leavesAlone: ["sudo -l/-v/-k (they run nothing), chmod +x and 644/755 in the project, loading a module by name with modprobe"],
};
