import type { HookAPI } from "xcsh-hooks";

// A second redactor beside first-hook.ts: tool_result handlers are chained, so this one
// receives the output with API keys already redacted, and both redactions reach the model.
export default function (pi: HookAPI) {
	pi.on("tool_result", (event) => ({
		content: event.content.map((c) => (c.type === "text" ? { ...c, text: c.text.replaceAll(/[\w.+-]+@[\w-]+\.[\w.]+/g, "<email>") } : c)),
	}));
}
