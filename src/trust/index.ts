export * from "./trust-store.ts";
