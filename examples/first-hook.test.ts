import { expect, test } from "bun:test";
import { createHookHarness } from "xcsh-hooks/testing";

test("blocks rm -rf and redacts API keys", async () => {
	const h = await createHookHarness(`${import.meta.dir}/first-hook.ts`);
	expect(await h.toolCall("bash", { command: "ls" })).toEqual({ blocked: false });
	expect((await h.toolCall("bash", { command: "rm -rf /" })).reason).toBe("blocked by policy: rm -rf /");
	expect((await h.toolResult("read", { path: ".env" }, "API_KEY=abc\nDEBUG=1")).text).toBe("API_KEY=***\nDEBUG=1");
});
