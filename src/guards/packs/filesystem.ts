/** The `filesystem` pack (on by default): deletes and writes that cannot be undone. */
import { findStarts } from "../find.ts";
import { hasFlag, parseOptions } from "../options.ts";
import type { RuleContext, RulePack, ShellRule } from "../types.ts";
import { firstUnsafe } from "./_paths.ts";
import { deviceRules } from "./filesystem-devices.ts";
import { moveRules, runnerRuns } from "./filesystem-moves.ts";

/** `find -name` patterns of files a build or a run makes again: deleting them inside the project loses nothing. */
const GENERATED =
	/^(?:\*\.(?:pyc|pyo|o|obj|class|tmp|temp|swp|swo|orig|rej|tsbuildinfo|gcda|gcno)|\*~|\.DS_Store|Thumbs\.db|__pycache__|\.pytest_cache|node_modules|\.eslintcache)$/;

/** `find START… -name '*.pyc' -delete` inside the project: only generated files, tested before the delete. */
function generatedOnly(args: readonly string[], starts: readonly string[], context: RuleContext): boolean {
	const project = context.project;
	if (!project || project === "/" || project === context.home) return false;
	for (const start of starts) {
		const path = context.resolve(start);
		if (path === undefined || (path !== project && !path.startsWith(`${project}/`))) return false;
	}
	const at = args.indexOf("-delete");
	const before = args.slice(starts.length, at);
	// An `-o`, a `!` or a `,` could widen the match; an action before `-delete` is not a filter.
	if (before.some((a) => /^(?:-o|-or|,|!|-not|-exec|-execdir|-ok|-okdir|-prune)$/.test(a))) return false;
	const names = before.flatMap((a, i) => (/^-i?name$/.test(a) ? [before[i + 1] ?? ""] : []));
	return names.length > 0 && names.every((name) => GENERATED.test(name));
}

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
			const starts = findStarts(command.args).map((start) => start.path);
			if (generatedOnly(command.args, starts, context)) return false;
			const why = firstUnsafe(command, starts.length > 0 ? starts : ["."], context);
			return why && `find -delete (${why})`;
		},
	},
	{
		id: "filesystem/shred",
		reason: "overwrites files beyond recovery (shred)",
		programs: ["shred", "srm", "wipe"],
		test: () => true,
	},
	...deviceRules,
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

/** Recursive deletes outside temp dirs, shred, writes to disks, mkfs/wipefs, chmod/chown -R on /, destruction without rm. */
export const filesystemPack: RulePack = {
	name: "filesystem",
	description: "recursive deletes outside temp dirs, moves of home/the project, rsync --delete, disk writes and formats, chmod -R /",
	rules: [...rules, ...moveRules],
	nested: runnerRuns,
	protects: [
		"recursive deletes (rm -r, find -delete, rimraf/del-cli/trash, also through npx/bunx/pnpm dlx/npm exec/yarn dlx) outside temp dirs",
		"home, the project and the folders that hold them: mv away, rsync --delete into them, --remove-source-files, tar --remove-files, zip -m",
		"disks: every writer of a block device (dd, dcfldd, ddrescue, cp, tee, install, pv -o, redirections), with /dev paths normalised",
		"formats and wipes (mkfs on a device, wipefs, blkdiscard, sgdisk, fdisk/parted), LVM/ZFS/RAID removals, shred",
		"recursive chmod/chown of / or system folders; interpreter one-liners that delete files",
	],
	leavesAlone: [
		"regenerable folders inside the project: node_modules, build, dist, out, target, .next, coverage, .cache, __pycache__… (a build makes them again)",
		"find -name '*.pyc' (and other generated-file patterns) -delete inside the project",
		"mkfs, wipefs and parted on an image file (mkfs.ext4 -F disk.img); reads of devices (dd if=/dev/sda of=disk.img)",
		"deletes inside temp dirs and allowPaths; rm of single files; mv of files and subfolders",
	],
};
