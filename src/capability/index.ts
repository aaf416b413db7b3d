export * from "./hooks.ts";
export * from "./registry.ts";
