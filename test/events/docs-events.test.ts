/** docs/events.md is the event table written out: regenerated from it, and naming every entry. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { EVENTS_DOC, eventsDoc } from "../../scripts/gen-docs-events.ts";
import { EVENTS } from "../../src/hooks/events.ts";

test("docs/events.md is what `bun scripts/gen-docs-events.ts` writes from the event table (rerun it when this fails)", () => {
	expect(readFileSync(EVENTS_DOC, "utf8")).toBe(eventsDoc());
});

test("every event of the table has its section in docs/events.md, with its combine rule", () => {
	const doc = readFileSync(EVENTS_DOC, "utf8");
	for (const [type, entry] of Object.entries(EVENTS)) {
		const section = doc.split(`\n## \`${type}\`\n`)[1]?.split("\n## ")[0];
		expect(section, type).toBeDefined();
		expect(section).toContain(`**Combine**: \`${entry.combine.rule}\``);
	}
});
