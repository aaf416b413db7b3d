/** The library the executable serves to its hooks (SPEC §9). */
export { LIBRARY_MODULES, PACKAGE_MODULES } from "./modules.ts";
export { registerEmbeddedModules } from "./register.ts";
