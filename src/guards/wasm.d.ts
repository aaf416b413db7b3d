/**
 * A `.wasm` file imported `with { type: "file" }`: its path, inside the executable when compiled. Referenced
 * from parser.ts (a triple-slash reference), so a consumer type-checking the package's sources sees it too.
 */
declare module "*.wasm" {
	const path: string;
	export default path;
}
