/** The library the executable serves to its hooks (docs/contract.md#the-executable-serves-the-library). */
export { LIBRARY_MODULES, PACKAGE_MODULES } from "./modules.ts";
export { registerEmbeddedModules } from "./register.ts";
