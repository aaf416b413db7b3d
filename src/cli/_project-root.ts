import { findProject } from "../discovery/project.ts";
import { writeErr } from "./_shared.ts";

/**
 * Where a command that writes the project's own files (`install`/`uninstall`'s project config, `init`'s
 * hooks, `types`' declarations) works when run in `cwd`: the project root, found as every call finds it
 * (src/discovery/project.ts), said on stderr when it is not `cwd` itself. So a command run in
 * `proj/src` writes where the agents and every call started anywhere in `proj` read it.
 */
export async function projectRootFor(cwd: string): Promise<string> {
	const { root, by } = findProject(cwd);
	if (root === cwd) return cwd;
	const why =
		by === "project" ? "the nearest folder above it holding .xcsh/ or an agent's project folder" : "the root of its git repository";
	await writeErr(`xcsh-hooks: ${cwd} is inside the project ${root} (${why}); working there`);
	return root;
}
