import type { HookFactory } from "./types.ts";

/** Types a hook factory without an annotation: `export default defineHook((pi) => { … })`. */
export function defineHook(factory: HookFactory): HookFactory {
	return factory;
}
