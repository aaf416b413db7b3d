import { runProcess } from "./process.ts";

/** The command prefix that runs a program in its own network namespace with only loopback up. */
export const NETNS_PREFIX = ["unshare", "--net", "--map-root-user", "sh", "-c", 'ip link set lo up && exec "$0" "$@"'];

/**
 * Whether {@link NETNS_PREFIX} works here (needs util-linux `unshare`, iproute2 `ip` and user namespaces);
 * resolves the reason when it does not.
 */
export async function netnsProblem(): Promise<string | undefined> {
	try {
		const probe = await runProcess([...NETNS_PREFIX, "true"], {
			cwd: "/",
			env: { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/bin" },
			timeoutMs: 10_000,
		});
		return probe.code === 0 ? undefined : `unshare/ip failed (exit ${probe.code}): ${probe.stderr.trim()}`;
	} catch (error) {
		return String(error);
	}
}

/** Proves the isolation from inside: a connection to a public address must fail at once. */
export async function externalNetworkReachable(): Promise<boolean> {
	try {
		await fetch("http://1.1.1.1/", { signal: AbortSignal.timeout(3000) });
		return true;
	} catch (error) {
		// A timeout means packets might leave; only an immediate refusal ("unreachable") proves there is no route.
		return error instanceof DOMException && error.name === "TimeoutError";
	}
}
