import type { HookAPI } from "xcsh-hooks";

// Fix a call instead of blocking it: `kubectl apply` only ever runs as a server-side dry run.
// The returned input replaces the whole input; hooks loaded after this one see the new command.
export default function (pi: HookAPI) {
	pi.on("tool_call", (event) => {
		const command = String(event.input.command ?? "");
		// A plain `kubectl apply …` only: appended to `a; b` the flag would land on the wrong program.
		if (event.toolName === "bash" && /^kubectl apply(\s+[\w./:=-]+)*$/.test(command) && !command.includes("--dry-run"))
			return { input: { ...event.input, command: `${command} --dry-run=server` } };
	});
}
