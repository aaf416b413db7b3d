import type { HookAPI } from "xcsh-hooks";

export default function (pi: HookAPI) {
	pi.on("tool_call", async (event) => {
		const command = String(event.input.command ?? "");
		if (event.toolName === "bash" && command.includes("rm -rf")) return { block: true, reason: `blocked by policy: ${command}` };
	});
	pi.on("tool_result", (event) => ({
		content: event.content.map((c) => (c.type === "text" ? { ...c, text: c.text.replaceAll(/API_KEY=\S+/g, "API_KEY=***") } : c)),
	}));
}
