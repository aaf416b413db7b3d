/** The `hosting` pack (opt-in): `gh` commands that delete repositories, releases, secrets or runs, or make a repository public. */
import type { RulePack } from "../types.ts";
import { verbRule } from "./_verbs.ts";

/** gh repo delete, gh release delete, gh secret delete, gh api -X DELETE, GraphQL delete mutations… */
export const hostingPack: RulePack = {
	name: "hosting",
	description: "GitHub deletes: gh repo/release/secret/variable/run/cache/issue/gist delete, gh api -X DELETE, repo made public",
	rules: [
		verbRule(
			"hosting/gh-delete",
			"gh deletes a repository, release, secret or other GitHub data",
			["gh", "hub"],
			[
				"(repo|release|secret|variable|run|cache|issue|label|ssh-key|gpg-key|gist|project|codespace|ruleset|environment|deploy-key|org) (delete|remove|rm|del|delete-asset)",
				"repo deploy-key (delete|remove)",
				"project (item-delete|field-delete)",
				"delete",
			],
			{ shortValue: "R", longValue: ["repo", "org", "env", "owner", "jq", "template"] },
		),
		{
			id: "hosting/gh-api",
			reason: "gh api sends a DELETE request or a delete mutation",
			programs: ["gh"],
			test(command) {
				const args = command.args;
				if (args[0] !== "api") return false;
				if (
					args.some(
						(a, i) => (/^(?:-X|--method)$/.test(a) && /^delete$/i.test(args[i + 1] ?? "")) || /^(?:-XDELETE|--method=DELETE)$/i.test(a),
					)
				)
					return "gh api -X DELETE deletes GitHub data";
				return (
					args.some((a) => /\bmutation\b[\s\S]*\b(?:delete|remove|archive)\w*\s*\(/i.test(a)) && "gh api graphql runs a delete mutation"
				);
			},
		},
		{
			id: "hosting/gh-visibility",
			reason: "gh makes a repository public",
			programs: ["gh"],
			test: (command) =>
				command.args[0] === "repo" &&
				command.args[1] === "edit" &&
				command.args.some((a, i) => a === "--visibility=public" || (a === "--visibility" && command.args[i + 1] === "public")),
		},
	],
	protects: [
		"gh repo/release/secret/variable/run/cache/issue/label/gist/project/codespace/key deletes, release delete-asset",
		"gh api -X DELETE and GraphQL delete mutations; gh repo edit --visibility public",
	],
	leavesAlone: ["everyday gh: pr create/merge/checkout, issue create/comment, run view, release create, repo clone/archive"],
};
