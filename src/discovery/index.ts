export * from "./claude.ts";
export * from "./codex.ts";
export * from "./native.ts";
export * from "./register.ts";
export * from "./settings.ts";
export * from "./settings-schema.ts";
