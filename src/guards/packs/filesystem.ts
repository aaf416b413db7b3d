/** The `filesystem` pack (on by default): deletes and writes that cannot be undone. */
import { findStarts } from "../find.ts";
import { hasFlag, parseOptions } from "../options.ts";
import type { RulePack, ShellRule } from "../types.ts";
import { firstUnsafe } from "./_paths.ts";

/** Block devices and disks, as a redirect or `of=` target. */
const DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|loop|dm-|sr|nbd|zd|mtd)/;

/** Top-level directories a recursive `chmod`/`chown` must not touch. */
const SYSTEM = /^\/(?:|bin|boot|dev|etc|home|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var|Users|System|Library|Applications)\/?$/;

const rules: ShellRule[] = [
	{
		id: "filesystem/recursive-delete",
		reason: "a recursive delete outside temp dirs",
		programs: ["rm"],
		test(command, context) {
			const options = parseOptions(command.args);
			if (hasFlag(options, "--no-preserve-root")) return "a recursive delete with --no-preserve-root";
			if (!hasFlag(options, "r", "R", "--recursive")) return false;
			const why = firstUnsafe(command, options.positionals, context);
			return why && `a recursive delete (${why})`;
		},
	},
	{
		id: "filesystem/find-delete",
		reason: "find -delete outside temp dirs",
		programs: ["find"],
		test(command, context) {
			if (!command.args.includes("-delete")) return false;
			// `find -L ~ -delete` starts at `~`: the options before the paths are skipped as find does.
			const why = firstUnsafe(
				command,
				findStarts(command.args).map((start) => start.path),
				context,
			);
			return why && `find -delete (${why})`;
		},
	},
	{
		id: "filesystem/shred",
		reason: "overwrites files beyond recovery (shred)",
		programs: ["shred", "srm", "wipe"],
		test: () => true,
	},
	{
		id: "filesystem/device-write",
		reason: "writes to a disk device",
		when: /dev|dd|tee|cp|of=|>/,
		test(command) {
			if (command.redirects.some((r) => !r.op.includes("<") && DEVICE.test(r.target))) return true;
			if (command.program === "dd") return command.args.some((arg) => arg.startsWith("of=") && DEVICE.test(arg.slice(3)));
			if (command.program === "tee" || command.program === "cp") return command.args.some((arg) => DEVICE.test(arg));
			return false;
		},
	},
	{
		id: "filesystem/format",
		reason: "formats or wipes a disk (mkfs, wipefs, fdisk)",
		when: /mk|wipe|disk|parted|blk/i,
		test(command) {
			const p = command.program;
			if (/^mkfs(?:\.\w+)?$|^mke2fs$|^mkswap$|^wipefs$|^blkdiscard$|^sgdisk$/.test(p)) return true;
			return (
				/^(?:fdisk|sfdisk|gdisk|parted|cfdisk)$/.test(p) &&
				command.args.some((arg) => DEVICE.test(arg)) &&
				!command.args.some((arg) => arg === "-l" || arg === "--list" || arg === "print")
			);
		},
	},
	{
		id: "filesystem/recursive-chmod",
		reason: "a recursive chmod/chown of / or a system directory",
		programs: ["chmod", "chown", "chgrp"],
		test(command, context) {
			const options = parseOptions(command.args);
			if (!hasFlag(options, "R", "--recursive")) return false;
			const paths = options.long.has("reference") ? options.positionals : options.positionals.slice(1);
			return paths.some((path) => {
				const resolved = context.resolve(path)?.replace(/\/[^/]*[*?[][^/]*$/, "") || (path.startsWith("/") ? "/" : undefined);
				return resolved !== undefined && (SYSTEM.test(resolved) || resolved === context.home);
			});
		},
	},
	{
		id: "filesystem/code-delete",
		reason: "an interpreter one-liner that deletes files outside temp dirs",
		when: /py|node|bun|deno|ruby|perl|php/i,
		test(command, context) {
			for (const found of command.deletes ?? []) {
				const path = found.target === undefined ? undefined : context.resolve(found.target);
				if (path === undefined || !(context.isTemp(path) || context.isAllowed(path)))
					return `a ${command.program} one-liner that deletes files (${found.call}${found.target === undefined ? "" : ` ${found.target}`})`;
			}
			return false;
		},
	},
];

/** Recursive deletes outside temp dirs, shred, writes to disks, mkfs/wipefs, chmod/chown -R on /. */
export const filesystemPack: RulePack = {
	name: "filesystem",
	description: "recursive deletes outside temp dirs, shred, disk writes and formats, chmod -R /",
	rules,
};
