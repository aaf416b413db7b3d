/**
 * Rules of the `filesystem` pack on disks: every program that writes a block device, with the
 * target normalised the way the kernel resolves it but without touching the disk (`//dev/sda`,
 * `/dev/./sda`, `/dev/../dev/sda`, `sda` after `cd /dev`), and the tools that format, wipe or
 * remove volumes. `mkfs` on an image file (`mkfs.ext4 -F disk.img`) is no disk, so it is allowed.
 */
import { parseOptions } from "../options.ts";
import type { RuleContext, ShellCommand, ShellRule } from "../types.ts";

/** Device files that are no disk: writing them loses nothing. */
const HARMLESS = /^\/dev\/(?:null|zero|full|random|urandom|tty\w*|console|ptmx|kmsg|stdin|stdout|stderr|fd\/.*|pts\/.*|shm\/.*)$/;

/** Names of disks and partitions, for a relative target whose directory is unknown. */
const DISK_NAME = /^(?:sd[a-z]+|hd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|loop\d|nbd\d|sr\d|zd\d|mtdblock\d)/;

/** Why writing `target` writes a disk, or `undefined` when it does not. */
export function deviceTarget(target: string, computed: boolean, context: RuleContext): string | undefined {
	if (computed || /[$`]/.test(target)) {
		if (/^\/+(?:\.\/+)*dev\//.test(target) || /^(?:\$\{?\w+\}?\/)?(?:sd|nvme|mmcblk|hd|vd|xvd)/.test(target.split("/").at(-1) ?? ""))
			return `${target}: a device known only at run time`;
		return undefined;
	}
	const path = context.resolve(target);
	if (path === undefined) {
		const name = target.split("/").at(-1) ?? "";
		return DISK_NAME.test(name) ? `${target}: a disk name, in a directory the guard could not follow` : undefined;
	}
	if (!path.startsWith("/dev/") || HARMLESS.test(path)) return undefined;
	return path === target ? target : `${target} (${path})`;
}

/** The first argument of `words` that is a disk, with why. */
function firstDevice(command: ShellCommand, words: readonly string[], context: RuleContext): string | undefined {
	for (const word of words) {
		const at = command.args.lastIndexOf(word);
		const why = deviceTarget(word, command.computed[at] === true, context);
		if (why) return why;
	}
	return undefined;
}

/** The value of `-o FILE`, `--output FILE`, `--output=FILE` (pv). */
function outputOption(args: readonly string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "-o" || arg === "--output") out.push(args[i + 1] ?? "");
		else if (arg.startsWith("--output=")) out.push(arg.slice(9));
		else if (/^-[^-]*o/.test(arg) && !arg.startsWith("--")) out.push(arg.slice(arg.indexOf("o") + 1) || (args[i + 1] ?? ""));
	}
	return out;
}

/** Where a copying program writes: its `-t DIR`, else its last operand. */
function destination(args: readonly string[], shortValue: string, longValue: string[]): string[] {
	const options = parseOptions(args, { shortValue, longValue });
	const target = options.values.get("t") ?? options.long.get("target-directory");
	if (typeof target === "string") return [target];
	return options.positionals.length >= 2 ? [options.positionals.at(-1) as string] : [];
}

/** Read-only uses of the partitioning tools. */
const PARTITION_READS =
	/^(?:-l|--list|-p|--print|-i|--info(?:=.*)?|-v|--verify|-L|--list-types|-O|--print-mbr|-\?|--help|-V|--version|print|-s|--show-size|-d|--dump|-J|--json)$/;

export const deviceRules: ShellRule[] = [
	{
		id: "filesystem/device-write",
		reason: "writes to a disk device",
		// A disk is reached through `/dev` (written, or `cd`'d to), a redirection, or one of these writers.
		when: /dev|dd|tee|cp|of=|>|install|rsync|pv|flash|bmap/,
		test(command, context) {
			for (const redirect of command.redirects) {
				if (!redirect.op.includes(">") || /^\d+$|^-$/.test(redirect.target)) continue;
				const why = deviceTarget(redirect.target, /[$`]/.test(redirect.target), context);
				if (why) return `writes to a disk device (${why})`;
			}
			const p = command.program;
			let targets: string[] = [];
			if (p === "dd" || p === "dcfldd") targets = command.args.filter((a) => /^(?:of|vf)=/.test(a)).map((a) => a.slice(3));
			else if (p === "ddrescue" || p === "dd_rescue") targets = command.args.filter((a) => !a.startsWith("-")).slice(1, 2);
			else if (p === "tee") targets = parseOptions(command.args).positionals;
			else if (p === "cp" || p === "install" || p === "rsync" || p === "cat")
				targets =
					p === "cat" ? [] : destination(command.args, "StmogB", ["target-directory", "suffix", "mode", "owner", "group", "backup"]);
			else if (p === "pv") targets = outputOption(command.args);
			else if (p === "flashrom" || p === "bmaptool") targets = command.args.filter((a) => a.startsWith("/dev"));
			const why = targets.length > 0 ? firstDevice(command, targets, context) : undefined;
			if (why) return `writes to a disk device (${why})`;
			if ((p === "dd" || p === "dcfldd") && command.args.some((a, i) => a.startsWith("of=") && command.computed[i] === true))
				return "dd writes to a target known only at run time";
			return false;
		},
	},
	{
		id: "filesystem/format",
		reason: "formats, partitions or wipes a disk",
		when: /mk|wipe|disk|parted|blk|newfs/i,
		test(command, context) {
			const p = command.program;
			const words = command.args.filter((a) => !a.startsWith("-"));
			if (/^mkfs(?:\.\w+)?$|^mke2fs$|^mkswap$|^mkdosfs$|^mkntfs$|^newfs(?:_\w+)?$|^wipefs$/.test(p)) {
				const computed = command.args.some((a, i) => !a.startsWith("-") && command.computed[i] === true);
				if (computed) return `${p} on a target known only at run time`;
				const why = firstDevice(command, words, context);
				return why ? `${p} formats or wipes a disk (${why})` : false;
			}
			if (p === "blkdiscard") return "blkdiscard discards every block of a disk";
			if (/^(?:fdisk|sfdisk|gdisk|cgdisk|sgdisk|parted|cfdisk)$/.test(p)) {
				if (command.args.some((a) => PARTITION_READS.test(a))) return false;
				const why = firstDevice(command, words, context);
				return why ? `${p} rewrites the partition table of a disk (${why})` : false;
			}
			return false;
		},
	},
	{
		id: "filesystem/volume-destroy",
		reason: "removes or erases a volume, pool or disk",
		programs: [
			"lvremove",
			"vgremove",
			"pvremove",
			"lvreduce",
			"vgreduce",
			"lvm",
			"zfs",
			"zpool",
			"mdadm",
			"cryptsetup",
			"nvme",
			"sg_format",
			"sg_sanitize",
			"hdparm",
		],
		test(command) {
			const p = command.program;
			const words = command.args.filter((a) => !a.startsWith("-"));
			if (/^(?:lvremove|vgremove|pvremove|lvreduce|vgreduce)$/.test(p)) return `${p} removes LVM volumes and the data on them`;
			if (p === "lvm" && /^(?:lvremove|vgremove|pvremove|lvreduce|vgreduce)$/.test(words[0] ?? ""))
				return `lvm ${words[0]} removes LVM volumes`;
			if ((p === "zfs" || p === "zpool") && /^(?:destroy|labelclear)$/.test(words[0] ?? ""))
				return `${p} ${words[0]} destroys datasets or pools`;
			if (p === "mdadm" && command.args.some((a) => a === "--zero-superblock")) return "mdadm --zero-superblock erases a RAID member";
			if (p === "cryptsetup" && /^(?:luksFormat|erase|luksErase|luksKillSlot|reencrypt)$/.test(words[0] ?? ""))
				return `cryptsetup ${words[0]} destroys the keys to a disk`;
			if (p === "nvme" && /^(?:format|sanitize)$/.test(words[0] ?? "")) return `nvme ${words[0]} erases a disk`;
			if (p === "sg_format" || p === "sg_sanitize") return `${p} erases a disk`;
			if (
				p === "hdparm" &&
				command.args.some((a) => /^--(?:security-erase|security-erase-enhanced|trim-sector-ranges|write-sector)/.test(a))
			)
				return "hdparm erases or writes disk sectors";
			return false;
		},
	},
];
