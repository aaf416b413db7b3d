/**
 * Tool and environment managers that run a command in their environment (`uv run`, `poetry run`,
 * `bundle exec`, `mise exec`, `direnv exec DIR`, `nix-shell --run`…): part of the table in
 * `runners.ts`. Their options change often and are many, so where the command starts is not
 * guessed: after `--` it is exact; without it, every word that could start it is judged as a start.
 */
import { type Call, quote, type Runner, type Unwrapped } from "./runner-kinds.ts";

const MAX_STARTS = 6;

/** Each way the words after the subcommand could begin the command (exact after `--`). */
function starts(call: Call, from: number, via: string): Unwrapped | undefined {
	const { args, computed } = call;
	const dashes = args.indexOf("--", from);
	const candidates: number[] = [];
	if (dashes >= 0) candidates.push(dashes + 1);
	else
		for (let i = from; i < args.length && candidates.length < MAX_STARTS; i++) if (!(args[i] as string).startsWith("-")) candidates.push(i);
	const commands = candidates.filter((at) => at < args.length).map((at) => ({ argv: args.slice(at), computed: computed.slice(at) }));
	return commands.length > 0 ? { kind: "commands", via, commands } : undefined;
}

/**
 * `program SUB … command…` for the subcommands that run one; `skip` operands come before it
 * (`direnv exec DIR`); `group` subcommands lead to them (`docker compose exec`). `remote`: it runs
 * somewhere else (a container), in a directory the guard cannot know.
 */
function subcommand(subs: Record<string, number>, more: { group?: readonly string[]; remote?: boolean } = {}): Runner {
	return {
		options: { short: "" },
		run(call) {
			let at = call.args.findIndex((arg) => !arg.startsWith("-"));
			if (more.group?.includes(call.args[at] ?? "")) at = call.args.findIndex((arg, i) => i > at && !arg.startsWith("-"));
			const sub = at < 0 ? undefined : (call.args[at] as string);
			if (sub === undefined || !Object.hasOwn(subs, sub)) return undefined;
			const found = starts(call, at + 1 + (subs[sub] as number), `${call.program} ${sub}`);
			if (!more.remote || found?.kind !== "commands") return found;
			// Each start as a script run in a directory the guard cannot know.
			return {
				kind: "script",
				via: `${call.program} ${sub}`,
				script: found.commands.map((c) => asLine(c.argv)).join("\n"),
				cwd: "unknown",
			};
		},
	};
}

const asLine = (words: readonly string[]) => words.map(quote).join(" ");

/** `nix-shell --run CMD`, `nix develop -c CMD…`, `nix shell pkgs -c CMD…`: a script or an argv. */
const nixShell: Runner = {
	options: { short: "" },
	run(call) {
		const at = call.args.findIndex((arg) => arg === "--run" || arg === "--command");
		return at < 0 || at + 1 >= call.args.length
			? undefined
			: { kind: "script", via: "nix-shell --run", script: call.args[at + 1] as string };
	},
};
const nix: Runner = {
	options: { short: "" },
	run(call) {
		const at = call.args.findIndex((arg) => arg === "-c" || arg === "--command");
		if (at < 0 || !/^(?:develop|shell)$/.test(call.args.find((arg) => !arg.startsWith("-")) ?? "")) return undefined;
		return { kind: "argv", via: "nix -c", argv: call.args.slice(at + 1), computed: call.computed.slice(at + 1) };
	},
};

export const TOOL_RUNNERS: Readonly<Record<string, Runner>> = {
	uv: subcommand({ run: 0 }),
	uvx: { options: { short: "" }, run: (call) => starts(call, 0, "uvx") },
	pipx: subcommand({ run: 0 }),
	poetry: subcommand({ run: 0 }),
	pipenv: subcommand({ run: 0 }),
	pdm: subcommand({ run: 0 }),
	hatch: subcommand({ run: 0 }),
	conda: subcommand({ run: 0 }),
	mamba: subcommand({ run: 0 }),
	bundle: subcommand({ exec: 0 }),
	mise: subcommand({ exec: 0, x: 0 }),
	asdf: subcommand({ exec: 0 }),
	rbenv: subcommand({ exec: 0 }),
	pyenv: subcommand({ exec: 0 }),
	nodenv: subcommand({ exec: 0 }),
	volta: subcommand({ run: 0 }),
	fnm: subcommand({ exec: 0 }),
	devbox: subcommand({ run: 0 }),
	direnv: subcommand({ exec: 1 }),
	dotenv: { options: { short: "" }, run: (call) => starts(call, 0, "dotenv") },
	"env-cmd": { options: { short: "" }, run: (call) => starts(call, 0, "env-cmd") },
	docker: subcommand({ exec: 0, run: 0 }, { group: ["compose", "container"], remote: true }),
	podman: subcommand({ exec: 0, run: 0 }, { group: ["compose", "container"], remote: true }),
	nerdctl: subcommand({ exec: 0, run: 0 }, { group: ["compose", "container"], remote: true }),
	"docker-compose": subcommand({ exec: 0, run: 0 }, { remote: true }),
	kubectl: subcommand({ exec: 0, debug: 0 }, { remote: true }),
	oc: subcommand({ exec: 0, rsh: 0, debug: 0 }, { remote: true }),
	"nix-shell": nixShell,
	nix,
};
